import { DEFAULT_SEED } from "./default-seed.ts";
import type { EmulatorSeedInput } from "./schema.ts";

/**
 * What {@link seedFor} needs: the backend's origin, and optionally its callback path and the seed
 * to adapt.
 *
 * @example
 * ```ts
 * const input: SeedForInput = { backendUrl: "http://127.0.0.1:8787" };
 * const emu = createPlatformEmulator({ seed: seedFor(input) });
 * ```
 */
export interface SeedForInput {
  /** The backend's public origin, e.g. `http://127.0.0.1:8787` (a trailing slash is dropped). */
  backendUrl: string;
  /** Path of the backend's OAuth callback. Default `/oauth/callback`. */
  callbackPath?: string;
  /** The seed to adapt. Default: the project's demo identities. */
  seed?: EmulatorSeedInput;
}

/**
 * A seed whose applications are registered for a backend at `backendUrl`: every application's
 * `redirect_uri` becomes `backendUrl + callbackPath` and its `homepage` `backendUrl`. For a main
 * job or a test that runs the backend on a port chosen at start (spec 2.1: the registered
 * redirect_uri must equal the one the backend sends).
 *
 * @example
 * ```ts
 * const emu = await startPlatformEmulator({ seed: seedFor({ backendUrl: `http://127.0.0.1:${port}` }) });
 * ```
 */
export function seedFor(input: SeedForInput): EmulatorSeedInput {
  const base = input.seed ?? DEFAULT_SEED;
  const origin = input.backendUrl.replace(/\/+$/, "");
  const path = input.callbackPath ?? "/oauth/callback";
  return {
    ...base,
    applications: (base.applications ?? []).map((app) => ({
      ...app,
      homepage: origin,
      redirect_uri: `${origin}${path.startsWith("/") ? path : `/${path}`}`,
    })),
  };
}
