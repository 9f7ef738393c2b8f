import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { createClock, isEmulatorClock, type EmulatorClock } from "./clock/clock.ts";
import { createGrantService, type GrantService } from "./oauth/grants.ts";
import { createProxyTokenService, type ProxyTokenService } from "./oauth/proxy-token.ts";
import { resolveOptions, type PlatformEmulatorOptions, type ResolvedOptions } from "./options.ts";
import { observedClock } from "./persist/observed-clock.ts";
import { loadSavedState, saveState, type SavedState } from "./persist/saved-state.ts";
import {
  createSaver,
  NO_SAVER,
  readStateFile,
  STATE_FILE_NAME,
  writeStateFile,
  type Saver,
} from "./persist/state-file.ts";
import { createFaultState, type FaultState } from "./state/faults.ts";
import { EmulatorState } from "./state/store.ts";
import { createTaskEngine, type TaskEngine } from "./tasks/engine.ts";
import { createFileLinks, type FileLinks } from "./tasks/file-links.ts";
import { createTracker, type Tracker } from "./util/tracker.ts";
import { createWebhookEngine, type WebhookEngine } from "./webhooks/engine.ts";

/** The emulator's parts, built once by `createContext` and handed to every route. */
export interface EmulatorContext {
  options: ResolvedOptions;
  state: EmulatorState;
  clock: EmulatorClock;
  tracker: Tracker;
  faults: FaultState;
  grants: GrantService;
  proxy: ProxyTokenService;
  tasks: TaskEngine;
  links: FileLinks;
  webhooks: WebhookEngine;
  /** Saves the state to `dataDir`/`stateFile` (does nothing without one). */
  persistence: Saver;
}

/**
 * Builds the parts and wires them to each other; with a state file, they start from what it
 * holds and save every change to it.
 */
export function createContext(input: PlatformEmulatorOptions): EmulatorContext {
  const options = resolveOptions(input);
  const stateFile = statePath(input);
  const saved = stateFile ? readStateFile(stateFile) : undefined;
  // The saver needs the parts, and the parts report changes: they call it through this slot.
  const saver: { current: Saver } = { current: NO_SAVER };
  const changed = () => {
    saver.current.changed();
  };
  const baseClock = makeClock(input, saved);
  const clock = stateFile ? observedClock(baseClock, changed) : baseClock;
  const key = input.proxyTokenKey
    ? new TextEncoder().encode(input.proxyTokenKey)
    : saved
      ? new Uint8Array(Buffer.from(saved.key, "base64"))
      : randomBytes(32);
  const state = new EmulatorState(options.seed);
  if (saved) loadSavedState(state, saved, options.seed);
  const tracker = createTracker();
  const faults = createFaultState();
  const grants = createGrantService(state, clock, options);
  const proxy = createProxyTokenService(state, clock, options, grants, key);
  const webhooks = createWebhookEngine({ state, clock, options, faults, tracker, changed });
  const links = createFileLinks(options, key);
  const tasks = createTaskEngine(state, clock, options, webhooks, links);
  if (saved) {
    tasks.restore(saved.randomDraws);
    webhooks.restore(saved.deliveries);
  }
  if (stateFile) {
    const write = () => {
      writeStateFile(stateFile, saveState({ state, clock, tasks, webhooks, key }));
    };
    saver.current = createSaver(write, SAVE_DELAY_MS);
    if (!saved) write();
  }
  const persistence = saver.current;
  return {
    options,
    state,
    clock,
    tracker,
    faults,
    grants,
    proxy,
    tasks,
    links,
    webhooks,
    persistence,
  };
}

/** Wall ms between a change and its save (changes in between share the write). */
const SAVE_DELAY_MS = 250;

function statePath(input: PlatformEmulatorOptions): string | undefined {
  if (input.stateFile) return resolve(input.stateFile);
  return input.dataDir ? join(resolve(input.dataDir), STATE_FILE_NAME) : undefined;
}

function makeClock(input: PlatformEmulatorOptions, saved: SavedState | undefined): EmulatorClock {
  const clock = input.clock ?? "real";
  const scale = input.clockScale ?? 1;
  // A restored clock goes on from its saved time; a real one also by the time it was stopped.
  const start =
    saved && clock === "manual"
      ? saved.clockNow
      : saved && clock === "real"
        ? saved.clockNow + (Date.now() - saved.savedAt) * scale
        : undefined;
  if (clock === "real" || clock === "manual") return createClock({ mode: clock, scale, start });
  if (isEmulatorClock(clock)) return clock;
  return createClock({ mode: "source", source: clock, scale });
}
