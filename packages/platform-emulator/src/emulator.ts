import type { Hono } from "hono";
import { createContext } from "./context.ts";
import { createControl } from "./control/control.ts";
import type { EmulatorControl } from "./control/handle.ts";
import type { PlatformEmulatorOptions, ResolvedOptions } from "./options.ts";
import { createApps } from "./routes/apps.ts";

/**
 * An in-memory platform, as {@link createPlatformEmulator} returns it: Hono apps to call with
 * `app.request()` (or serve with any Hono adapter), the control handle, and the resolved options.
 *
 * @example
 * ```ts
 * const emu: PlatformEmulator = createPlatformEmulator({ clock: "manual" });
 * const quota = await emu.app.request("/v1/tasks/available-quota", {
 *   headers: { Authorization: "Bearer emu-demo-studio-paid-0001" },
 * });
 * ```
 */
export interface PlatformEmulator {
  /** Every route on one app: `{base_url}` routes, `{api_url}` routes and the control plane. */
  app: Hono;
  /** `/oauth/*`, `/api/open/*`, `/files/*` and the control plane (`{base_url}` on its own port). */
  baseApp: Hono;
  /** `/v1/*` and `/api/v1/*` (`{api_url}` on its own port). */
  apiApp: Hono;
  /** Seed, secrets, quotas, tasks, deliveries, the clock and faults (also over HTTP at /__emulator/). */
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
  const ctx = createContext(input);
  const control = createControl(ctx);
  return { ...createApps(ctx, control), control, options: ctx.options };
}
