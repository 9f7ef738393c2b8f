import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  closeOnSignals,
  createBackend,
  listen,
  freePort,
  parseEnv,
  type Config,
  type RunningServer,
} from "@overture/backend/server";
import { EXTENSION_ORIGINS, EXTENSION_REDIRECT_URLS } from "@overture/extension/identity";
import { seedFor } from "@overture/platform-emulator";
import {
  type RunningEmulator,
  type StartOptions,
  startPlatformEmulator,
} from "@overture/platform-emulator/server";
import type { MainJobEnv } from "./env.ts";
import { loadOrCreateState } from "./main-job/state.ts";

/** Where the running main job answers; written to the data folder for `pnpm demo`. */
export interface StackAddresses {
  backendUrl: string;
  platformUrl: string;
}

export interface LocalStack extends StackAddresses {
  config: Config;
  emulator: RunningEmulator;
  backend: RunningServer;
  /** The backend first (it may be mid-call to the platform), then the emulator, which saves. */
  close(): Promise<void>;
}

export const ADDRESSES_FILE = "addresses.json";

/**
 * The emulator and the backend on embedded PGlite, set up for each other, all state in
 * `dataDir`: the backend's database and keys, and the emulator's apps, grants, tokens, tasks and
 * deliveries (its `dataDir`), so a restart signs nobody out and a task cut by it finishes. The
 * emulator's app is registered for the backend's actual address on every start, so any ports work.
 */
export async function startLocalStack(
  settings: MainJobEnv,
  passThrough: Record<string, string | undefined> = {},
  /** Emulator options over the main job's (tests: shorter task timing). */
  emulatorOptions: Partial<StartOptions> = {},
): Promise<LocalStack> {
  const state = loadOrCreateState(settings.dataDir);
  // The backend must know its public address before it listens (it is in the OAuth redirect).
  const backendPort = settings.backendPort || (await freePort());
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const seed = seedFor({ backendUrl });
  const emulator = await startPlatformEmulator({
    port: settings.emulatorPort,
    dataDir: join(settings.dataDir, "emulator"),
    seed: { ...seed, webhookSecrets: { ...seed.webhookSecrets, demo: state.webhookSecret } },
    profile: settings.emulatorProfile ?? "readable",
    ...emulatorOptions,
  });
  const [app] = seed.applications ?? [];
  if (!app) throw new Error("the emulator's seed has no application");

  let backend: RunningServer;
  let config: Config;
  try {
    config = parseEnv({
      // Results as files in the data folder, as a self-hosted PGlite backend keeps them: the
      // database stays small, and a downloaded result is renamed into place rather than copied.
      ARCHIVE_STORAGE: "folder",
      ARCHIVE_DIR: join(settings.dataDir, "archive"),
      ...passThrough,
      HOST: "127.0.0.1",
      PORT: String(backendPort),
      PUBLIC_URL: backendUrl,
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_CLIENT_ID: app.client_id,
      PLATFORM_CLIENT_SECRET: app.client_secret,
      EXTENSION_REDIRECT_URLS: EXTENSION_REDIRECT_URLS.join(","),
      EXTENSION_ORIGINS: EXTENSION_ORIGINS.join(","),
      PGLITE_DATA_DIR: join(settings.dataDir, "pglite"),
      TOKEN_ENCRYPTION_KEYS: `main:${state.encryptionKey}`,
      DATABASE_URL: undefined,
      LOG_LEVEL: settings.logLevel,
    });
    backend = await listen(await createBackend(config), "127.0.0.1", backendPort);
  } catch (error) {
    await emulator.close();
    throw error;
  }

  const addresses: StackAddresses = { backendUrl: backend.url, platformUrl: emulator.url };
  const addressesFile = join(settings.dataDir, ADDRESSES_FILE);
  writeFileSync(addressesFile, `${JSON.stringify(addresses, null, 2)}\n`);
  let closing: Promise<void> | undefined;
  return {
    ...addresses,
    config,
    emulator,
    backend,
    close() {
      closing ??= (async () => {
        await backend.close();
        await emulator.close();
        rmSync(addressesFile, { force: true });
      })();
      return closing;
    },
  };
}

export { closeOnSignals };
