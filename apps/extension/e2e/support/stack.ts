// The real stack for the browser tests: the platform emulator and the backend (PGlite in a temp
// folder), each on its own 127.0.0.1 port, the backend allowing the extension's redirect URLs.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SEED } from "@overture/platform-emulator";
import {
  type RunningEmulator,
  type StartOptions,
  startPlatformEmulator,
} from "@overture/platform-emulator/server";
import {
  createBackend,
  freePort,
  listen,
  parseEnv,
  type RunningServer,
} from "@overture/backend/server";
import {
  CHROME_EXTENSION_ID as EXTENSION_ID,
  FIREFOX_REDIRECT_HOST,
} from "../../src/lib/shared/extension-identity.ts";
import { FIREFOX_ORIGIN } from "./firefox.ts";
import { tcpRelay } from "./relay.ts";

export { EXTENSION_ID };
export const CHROME_REDIRECT = `https://${EXTENSION_ID}.chromiumapp.org/`;

/** Runs a cleanup that may find nothing to clean (a `beforeAll` that failed half-way). */
export async function quietly(close: () => Promise<void>): Promise<void> {
  try {
    await close();
  } catch {
    // nothing was started, or it is already closed
  }
}

export interface Stack {
  emulator: RunningEmulator;
  backendUrl: string;
  /** Stops the backend only (to show the "unreachable" screen); `close` ignores it afterwards. */
  stopBackend(): Promise<void>;
  /** Bytes the backend has sent to the browser so far (HTTP headers and bodies, every request). */
  bytesToBrowser(): number;
  /** Of those, audio bodies (see relay.ts). */
  audioBytesToBrowser(): number;
  /** Starts a stopped backend again: same address, same data folder (a restart). */
  startBackend(): Promise<void>;
  close(): Promise<void>;
}

/** `emulatorOptions` go over the defaults below (e.g. `{ profile: "live" }`). */
export async function startStack(emulatorOptions: Partial<StartOptions> = {}): Promise<Stack> {
  const folder = await mkdtemp(join(tmpdir(), "overture-e2e-"));
  const port = await freePort();
  const backendUrl = `http://127.0.0.1:${port}`;
  const seed = {
    ...DEFAULT_SEED,
    applications: DEFAULT_SEED.applications.map((app) => ({
      ...app,
      homepage: backendUrl,
      redirect_uri: `${backendUrl}/oauth/callback`,
    })),
  };
  // Tasks run for seconds, long enough to cancel one and to watch one finish.
  const emulator = await startPlatformEmulator({
    port: 0,
    seed,
    timing: { waitingMs: 1_500, runningMs: 8_000, failureRate: 0 },
    maxAudioSeconds: 8,
    ...emulatorOptions,
  });
  const config = parseEnv({
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: backendUrl,
    PLATFORM_BASE_URL: emulator.url,
    PLATFORM_CLIENT_ID: "overture-local",
    PLATFORM_CLIENT_SECRET: "overture-local-secret-change-me",
    // Firefox too, with the add-on's pinned origin (firefox-live.e2e.test.ts signs in there).
    EXTENSION_REDIRECT_URLS: `${CHROME_REDIRECT},https://${FIREFOX_REDIRECT_HOST}/`,
    EXTENSION_ORIGINS: `chrome-extension://${EXTENSION_ID},${FIREFOX_ORIGIN}`,
    PGLITE_DATA_DIR: join(folder, "pglite"),
    ARCHIVE_DIR: join(folder, "archive"),
    TOKEN_ENCRYPTION_KEYS: `e2e:${randomBytes(32).toString("base64")}`,
    LOG_LEVEL: "warn",
  });
  // The browser talks to a relay on the public port; stopping cuts its connections as the end of
  // the backend's process would (see relay.ts), then the backend stops behind it.
  const inner = await freePort();
  const relay = tcpRelay(port, inner);
  const start = async () => {
    const running = await listen(await createBackend(config), config.host, inner);
    await relay.start();
    return running;
  };
  let server: RunningServer | null = await start();
  // A restart waits for the stop: two backends must never open the same PGlite folder.
  let stopped: Promise<void> = Promise.resolve();
  const stopBackend = () => {
    const running = server;
    server = null;
    stopped = relay.stop().then(() => running?.close());
    return stopped;
  };
  return {
    emulator,
    backendUrl,
    stopBackend,
    bytesToBrowser: () => relay.bytesToBrowser(),
    audioBytesToBrowser: () => relay.audioBytesToBrowser(),
    async startBackend() {
      await stopped;
      server ??= await start();
    },
    async close() {
      await stopBackend();
      await emulator.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
