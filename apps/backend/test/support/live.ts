/**
 * The stack over real sockets on 127.0.0.1, for fault tests where the transport is the point: the
 * platform emulator as a server (real clock, its real webhook retry schedule) and the backend
 * listening with `src/server/listen.ts`, in this process or as a child process (child-backend.ts).
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SEED, type TaskTiming } from "@overture/platform-emulator";
import {
  startPlatformEmulator,
  type RunningEmulator,
  type StartOptions,
} from "@overture/platform-emulator/server";
import { createBackend, type Backend } from "../../src/backend.ts";
import { parseEnv } from "../../src/env/env.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { freePort } from "../../src/server/free-port.ts";
import { listen, type RunningServer } from "../../src/server/listen.ts";
import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { CHROME_REDIRECT } from "./constants.ts";
import { createPostgresDatabase, type DriverName } from "./databases.ts";
import { signIn as signInOverHttp } from "../../src/testing/sign-in.ts";
import { testEnv } from "./harness.ts";

export { freePort };

/** A database for a live backend: a fresh Postgres database, or a PGlite folder; `drop` removes it. */
export async function liveDatabase(
  driver: DriverName,
): Promise<{ database: { url: string } | { dataDir: string }; drop: () => Promise<void> }> {
  if (driver === "pg") {
    const created = await createPostgresDatabase();
    return { database: { url: created.url ?? "" }, drop: () => created.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), "overture-live-"));
  return {
    database: { dataDir: join(dir, "pglite") },
    drop: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

/** Tasks that end between ~4 s and ~30 s after submit, one in five a failure: a steady stream. */
export const SPREAD_TIMING: Partial<TaskTiming> = {
  waitingMs: [500, 4_000],
  runningMs: [3_000, 25_000],
  failureRate: 0.2,
  seed: 7,
};

/** The emulator as a server whose seeded OAuth app points at the backend at `backendUrl`. */
export function startLiveEmulator(
  backendUrl: string,
  options: Partial<StartOptions> = {},
): Promise<RunningEmulator> {
  return startPlatformEmulator({
    port: 0,
    clock: "real",
    seed: {
      ...DEFAULT_SEED,
      applications: DEFAULT_SEED.applications.map((app) => ({
        ...app,
        redirect_uri: `${backendUrl}/oauth/callback`,
      })),
    },
    ...options,
  });
}

/** Environment of a backend at `port` talking to the emulator at `emulatorUrl`. */
export function liveEnv(
  port: number,
  emulatorUrl: string,
  database: { url: string } | { dataDir: string },
  overrides: Record<string, string> = {},
): Record<string, string> {
  return testEnv({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    PLATFORM_BASE_URL: emulatorUrl,
    ...("url" in database ? { DATABASE_URL: database.url } : { PGLITE_DATA_DIR: database.dataDir }),
    ...overrides,
  });
}

export interface LiveBackend {
  url: string;
  backend: Backend;
  server: RunningServer;
  /** Every log line (JSON) the backend wrote. */
  logs: string[];
  close(): Promise<void>;
}

/** The backend in this process, listening on `port` with its workers running. */
export async function startLiveBackend(env: Record<string, string>): Promise<LiveBackend> {
  const config = parseEnv(env);
  const logs: string[] = [];
  const logger = createLogger(config.logLevel, { write: (line: string) => void logs.push(line) });
  const backend = await createBackend(config, { logger });
  const server = await listen(backend, config.host, config.port);
  return { url: server.url, backend, server, logs, close: () => server.close() };
}

/** What a test does with a backend over HTTP, as the extension would. */
export function liveClient(url: string) {
  async function request(
    path: string,
    init: RequestInit & { session?: string } = {},
  ): Promise<Response> {
    const { session, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (session) headers.set("Authorization", `Bearer ${session}`);
    if (typeof rest.body === "string") headers.set("Content-Type", "application/json");
    return fetch(`${url}${path}`, { ...rest, headers });
  }

  async function expectOk(response: Response, what: string): Promise<Response> {
    if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${await response.text()}`);
    return response;
  }

  return {
    request,
    /** Signs in as the emulator's first user (demo) through the consent page. */
    signIn: () => signInOverHttp(url, CHROME_REDIRECT),
    /** Chooses demo's paid token and stores the account's webhook secret, as the extension does. */
    async prepareTasks(session: string, emu: RunningEmulator, quota = 1_000): Promise<void> {
      await expectOk(
        await request("/api/selection", {
          method: "PUT",
          session,
          body: JSON.stringify({ namespace: "demo", token_id: 101 }),
        }),
        "PUT /api/selection",
      );
      const secret = emu.control.resetWebhookSecret("demo");
      emu.control.setQuota("demo", quota);
      await expectOk(
        await request("/api/namespaces/demo/webhook-secret", {
          method: "PUT",
          session,
          body: JSON.stringify({ secret }),
        }),
        "PUT webhook-secret",
      );
    },
    async createTask(session: string, prompt: string): Promise<TaskJson> {
      const response = await expectOk(
        await request("/api/tasks", {
          method: "POST",
          session,
          body: JSON.stringify({ prompt, duration: 30 }),
        }),
        "POST /api/tasks",
      );
      return (await response.json()) as TaskJson;
    },
    async listTasks(session: string): Promise<TaskJson[]> {
      const response = await expectOk(
        await request("/api/tasks?limit=100", { session }),
        "GET /api/tasks",
      );
      return ((await response.json()) as { tasks: TaskJson[] }).tasks;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true; fails with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
