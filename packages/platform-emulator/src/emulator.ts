import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { Hono } from "hono";
import { createClock, isEmulatorClock, type EmulatorClock } from "./clock/clock.ts";
import type { EmulatorContext } from "./context.ts";
import { createControl, type EmulatorControl } from "./control/control.ts";
import { createGrantService } from "./oauth/grants.ts";
import { createProxyTokenService } from "./oauth/proxy-token.ts";
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
import { authorizeRoutes } from "./routes/authorize.ts";
import { controlRoutes } from "./routes/control.ts";
import { fileRoutes } from "./routes/files.ts";
import { openRoutes } from "./routes/open.ts";
import { taskRoutes } from "./routes/tasks.ts";
import { tokenRoutes } from "./routes/token.ts";
import { createFaultState } from "./state/faults.ts";
import { EmulatorState } from "./state/store.ts";
import { createTaskEngine } from "./tasks/engine.ts";
import { createFileLinks } from "./tasks/file-links.ts";
import { createTracker } from "./util/tracker.ts";
import { createWebhookEngine } from "./webhooks/engine.ts";

export interface PlatformEmulator {
  /** Every route on one app: `{base_url}` routes, `{api_url}` routes and the control plane. */
  app: Hono;
  /** `/oauth/*`, `/api/open/*`, `/files/*` and the control plane (`{base_url}` on its own port). */
  baseApp: Hono;
  /** `/v1/*` and `/api/v1/*` (`{api_url}` on its own port). */
  apiApp: Hono;
  control: EmulatorControl;
  /** The options after defaults (URLs, lifetimes, timing). */
  options: ResolvedOptions;
}

/**
 * Builds an in-memory platform (spec: OAuth consent, open endpoints, async music tasks with
 * quota, signed webhooks with the real retry schedule). Serve `app` with any Hono adapter, or
 * call `app.request()` in tests.
 *
 * @example
 * ```ts
 * const emu = createPlatformEmulator({ clock: "manual" });
 * const res = await emu.app.request("/v1/tasks/available-quota", {
 *   headers: { Authorization: "Bearer emu-demo-studio-paid-0001" },
 * });
 * await emu.control.clock.advance(10_000);
 * ```
 */
export function createPlatformEmulator(input: PlatformEmulatorOptions = {}): PlatformEmulator {
  const options = resolveOptions(input);
  const stateFile = statePath(input);
  const saved = stateFile ? readStateFile(stateFile) : undefined;
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
  const ctx: EmulatorContext = {
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
    persistence: saver.current,
  };
  const control = createControl(ctx);

  const baseParts = () => [
    authorizeRoutes(ctx),
    tokenRoutes(ctx),
    openRoutes(ctx),
    fileRoutes(ctx),
    controlRoutes(ctx, control),
  ];
  const baseApp = mount(baseParts(), changed);
  const apiApp = mount([taskRoutes(ctx)], changed);
  const app = mount([...baseParts(), taskRoutes(ctx)], changed);
  return { app, baseApp, apiApp, control, options };
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

function mount(parts: readonly Hono[], changed: () => void): Hono {
  const app = new Hono();
  // Reads change nothing, except the authorize page (a consent request, or a code).
  app.use("*", async function noteChanges(c, next) {
    await next();
    if (!["GET", "HEAD"].includes(c.req.method) || c.req.path === "/oauth/authorize") changed();
  });
  for (const part of parts) app.route("/", part);
  app.notFound((c) =>
    c.json({ error: "not_found", message: `no route ${c.req.method} ${c.req.path}` }, 404),
  );
  return app;
}
