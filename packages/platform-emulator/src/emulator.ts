import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { fileRoutes } from "./audio/routes.ts";
import { createClock, type ClockSource, type EmulatorClock } from "./clock/clock.ts";
import type { EmulatorContext } from "./context.ts";
import { createControl, type EmulatorControl } from "./control/control.ts";
import { createFaultState } from "./control/faults.ts";
import { controlRoutes } from "./control/routes.ts";
import { authorizeRoutes } from "./oauth/authorize.ts";
import { createGrantService } from "./oauth/grants.ts";
import { tokenRoutes } from "./oauth/token.ts";
import { createProxyTokenService } from "./open/proxy-token.ts";
import { openRoutes } from "./open/routes.ts";
import { resolveOptions, type PlatformEmulatorOptions, type ResolvedOptions } from "./options.ts";
import { EmulatorState } from "./state/store.ts";
import { createTaskEngine } from "./tasks/engine.ts";
import { taskRoutes } from "./tasks/routes.ts";
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
  const clock = makeClock(input);
  const state = new EmulatorState(options.seed);
  const tracker = createTracker();
  const faults = createFaultState();
  const grants = createGrantService(state, clock, options);
  const key = input.proxyTokenKey ? new TextEncoder().encode(input.proxyTokenKey) : randomBytes(32);
  const proxy = createProxyTokenService(state, clock, options, grants, key);
  const webhooks = createWebhookEngine({ state, clock, options, faults, tracker });
  const tasks = createTaskEngine(state, clock, options, webhooks);
  const ctx: EmulatorContext = {
    options,
    state,
    clock,
    tracker,
    faults,
    grants,
    proxy,
    tasks,
    webhooks,
  };
  const control = createControl(ctx, options.seed);

  const baseParts = () => [
    authorizeRoutes(ctx),
    tokenRoutes(ctx),
    openRoutes(ctx),
    fileRoutes(ctx),
    controlRoutes(ctx, control),
  ];
  const baseApp = mount(baseParts());
  const apiApp = mount([taskRoutes(ctx)]);
  const app = mount([...baseParts(), taskRoutes(ctx)]);
  return { app, baseApp, apiApp, control, options };
}

function makeClock(input: PlatformEmulatorOptions): EmulatorClock {
  const clock = input.clock ?? "real";
  const scale = input.clockScale ?? 1;
  if (clock === "real" || clock === "manual") return createClock({ mode: clock, scale });
  if (isEmulatorClock(clock)) return clock;
  return createClock({ mode: "source", source: clock, scale });
}

function isEmulatorClock(clock: ClockSource | EmulatorClock): clock is EmulatorClock {
  return "setTimer" in clock && "advance" in clock;
}

function mount(parts: readonly Hono[]): Hono {
  const app = new Hono();
  for (const part of parts) app.route("/", part);
  app.notFound((c) =>
    c.json({ error: "not_found", message: `no route ${c.req.method} ${c.req.path}` }, 404),
  );
  return app;
}
