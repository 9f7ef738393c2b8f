/**
 * An in-process backend wired to an in-process platform emulator, on one database driver.
 * Nothing listens on a port: the backend's platform `fetch` is `emu.app.request`, the emulator's
 * webhook `fetch` is `backend.app.request`. Time is the emulator's manual clock, which the
 * backend reads too, so `emu.control.clock.advance(ms)` moves both.
 */

import { randomBytes } from "node:crypto";
import { createPlatformClient, type PlatformClientOptions } from "@overture/core/client";
import {
  createPlatformEmulator,
  DEFAULT_SEED,
  type PlatformEmulator,
  type PlatformEmulatorOptions,
} from "@overture/platform-emulator";
import { createBackend, type Backend } from "../../src/backend.ts";
import type { Database } from "../../src/db/client.ts";
import { openDatabase } from "../../src/db/open.ts";
import { type Config, parseEnv } from "../../src/env/env.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createTestDatabase, type DriverName, type TestDatabase } from "./databases.ts";
import {
  CHROME_ORIGIN,
  CHROME_REDIRECT,
  CLIENT_ID,
  CLIENT_SECRET,
  FIREFOX_ORIGIN,
  FIREFOX_REDIRECT,
  PLATFORM_BASE_URL,
  PUBLIC_URL,
} from "./constants.ts";
import { instanceHelpers, type TestInstance } from "./instance.ts";

export { freshIp } from "./instance.ts";
export type {
  RequestOptions,
  SignedInUser,
  SignInOptions,
  StartedSignIn,
  TestInstance,
} from "./instance.ts";

export {
  CHROME_ORIGIN,
  CHROME_REDIRECT,
  CLIENT_ID,
  CLIENT_SECRET,
  FIREFOX_ORIGIN,
  FIREFOX_REDIRECT,
  PLATFORM_BASE_URL,
  PUBLIC_URL,
} from "./constants.ts";

export interface TestBackendOptions {
  driver: DriverName;
  /** Emulator options; default: manual clock, auto-approving consent, the project's seed. */
  emulator?: Partial<PlatformEmulatorOptions>;
  /** Environment variables overriding the harness defaults (`PLATFORM_CLIENT_AUTH`, …). */
  config?: Record<string, string>;
  /** Run background workers (`backend.start()`); off by default so tests drive them by hand. */
  workers?: boolean;
  /** Also open a second instance on the same database now (as `second`). */
  secondInstance?: boolean;
  /** Rewrites the platform's answers as the backend sees them (a platform behaving differently). */
  rewritePlatformResponse?: (
    path: string,
    response: Response,
    request: Request,
  ) => Response | Promise<Response>;
  /** Opens the suite's database instead of a fresh one of `driver` (fault-injecting wrappers). */
  database?: () => Promise<TestDatabase>;
  /** Deliver webhooks to every instance in turn (a load balancer), not only the first. */
  balanceWebhooks?: boolean;
  /** Platform client settings over the backend's defaults (retries, timeouts, sleep). */
  platformClient?: Pick<PlatformClientOptions, "retry" | "timeoutMs" | "sleep" | "random">;
}

/** One request the backend sent to the platform (recorded for counting refreshes and mints). */
export interface PlatformCall {
  method: string;
  path: string;
  /** `grant_type` of a token-endpoint request. */
  grantType?: string;
  /** 0 when no answer arrived (aborted, network error). */
  status: number;
}

/** One webhook as it left the emulator, beside the platform's own status of the task then. */
export interface WebhookArrival {
  taskId: string;
  status: string;
  /** The task's status on the platform when this event left: another one means it is stale. */
  platformStatus: string | undefined;
}

export interface TestBackend extends TestInstance {
  emu: PlatformEmulator;
  clock: Clock;
  config: Config;
  database: Database;
  /** The pg database URL of this suite (undefined on PGlite). */
  databaseUrl?: string;
  platformCalls: PlatformCall[];
  /** Every webhook the emulator sent, in the order it sent them. */
  webhookArrivals: WebhookArrival[];
  /** Every access, refresh and proxy token the platform handed the backend (raw values). */
  platformSecrets: Set<string>;
  /** Every log line the backends wrote (JSON), for scanning for leaked secrets. */
  logs: string[];
  /**
   * A second backend on the same database and emulator (pg: its own connection pool); `adjust`
   * gives it another configuration, as a restart after the operator changed one would.
   */
  openSecondInstance(adjust?: (config: Config) => Config): Promise<TestInstance>;
  /** The instance `secondInstance: true` opened. */
  second?: TestInstance;
  close(): Promise<void>;
}

export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  // The harness opens its own database, so DATABASE_URL is unset here and the PGlite default (a
  // folder beside PGLITE_DATA_DIR, in the working directory) would apply: archive into the
  // database unless the test chooses.
  const archive: Record<string, string> =
    overrides.ARCHIVE_STORAGE === undefined && overrides.ARCHIVE_DIR === undefined
      ? { ARCHIVE_STORAGE: "postgres" }
      : {};
  return {
    ...archive,
    PUBLIC_URL,
    PLATFORM_BASE_URL,
    PLATFORM_CLIENT_ID: CLIENT_ID,
    PLATFORM_CLIENT_SECRET: CLIENT_SECRET,
    EXTENSION_REDIRECT_URLS: `${CHROME_REDIRECT},${FIREFOX_REDIRECT}`,
    EXTENSION_ORIGINS: `${CHROME_ORIGIN},${FIREFOX_ORIGIN}`,
    TOKEN_ENCRYPTION_KEYS: `t1:${randomBytes(32).toString("base64")}`,
    LOG_LEVEL: "debug",
    ...overrides,
  };
}

export async function startTestBackend(options: TestBackendOptions): Promise<TestBackend> {
  const config = parseEnv(testEnv(options.config));
  const handle: TestDatabase = options.database
    ? await options.database()
    : await createTestDatabase(options.driver);
  const logs: string[] = [];
  const logger = createLogger(config.logLevel, { write: (line: string) => void logs.push(line) });
  const platformCalls: PlatformCall[] = [];
  const platformSecrets = new Set<string>();
  // Set once the main backend exists; the emulator only delivers webhooks after that.
  const webhookTarget: { app?: Backend["app"] } = {};
  let delivered = 0;
  const webhookArrivals: WebhookArrival[] = [];

  const seed = {
    ...DEFAULT_SEED,
    applications: DEFAULT_SEED.applications.map((app) => ({
      ...app,
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
    })),
  };
  const emu = createPlatformEmulator({
    clock: "manual",
    autoApprove: true,
    baseUrl: PLATFORM_BASE_URL,
    seed,
    fetch: async (input, init) => {
      if (!webhookTarget.app) throw new TypeError("backend not started");
      webhookArrivals.push(arrivalOf(init?.body, emu));
      // Behind a load balancer each delivery may reach any instance.
      const target = options.balanceWebhooks
        ? (instances[delivered++ % instances.length]?.app ?? webhookTarget.app)
        : webhookTarget.app;
      return target.request(new Request(input, init));
    },
    ...options.emulator,
  });
  const clock: Clock = { now: () => emu.control.clock.now() };

  const platformFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const grantType = path.endsWith("/oauth/token")
      ? (new URLSearchParams(await request.clone().text()).get("grant_type") ?? undefined)
      : undefined;
    const call = { method: request.method, path, ...(grantType ? { grantType } : {}) };
    let response: Response;
    try {
      // Like a real fetch, an aborted request (a client timeout) rejects instead of answering.
      const answered = await abortable(emu.app.request(request), request.signal);
      response = options.rewritePlatformResponse
        ? await options.rewritePlatformResponse(path, answered, request)
        : answered;
    } catch (error) {
      platformCalls.push({ ...call, status: 0 });
      throw error;
    }
    if (response.headers.get("content-type")?.includes("json"))
      collectSecrets(await response.clone().text(), platformSecrets);
    platformCalls.push({ ...call, status: response.status });
    return response;
  };

  const instances: Backend[] = [];
  const extraDatabases: Database[] = [];
  async function instance(database: Database, own = config): Promise<TestInstance> {
    const backend = await createBackend(own, {
      database,
      clock,
      logger,
      fetch: platformFetch,
      workers: options.workers ?? false,
      ...(options.platformClient
        ? {
            platform: createPlatformClient({
              ...config.platform,
              fetch: platformFetch,
              now: () => clock.now(),
              ...options.platformClient,
            }),
          }
        : {}),
    });
    instances.push(backend);
    if (options.workers) await backend.start();
    return instanceHelpers(backend, emu);
  }

  const main = await instance(handle.database);
  webhookTarget.app = main.app;
  async function openSecondInstance(adjust?: (c: Config) => Config): Promise<TestInstance> {
    const own = adjust ? adjust(config) : config;
    if (!handle.url) return instance(handle.database, own);
    const database = await openDatabase({ driver: "pg", url: handle.url });
    extraDatabases.push(database);
    return instance(database, own);
  }
  const second = options.secondInstance ? await openSecondInstance() : undefined;
  return {
    ...main,
    emu,
    clock,
    config,
    database: handle.database,
    ...(handle.url ? { databaseUrl: handle.url } : {}),
    platformCalls,
    webhookArrivals,
    platformSecrets,
    logs,
    openSecondInstance,
    ...(second ? { second } : {}),
    async close() {
      for (const backend of instances.reverse()) await backend.stop();
      for (const database of extraDatabases) await database.close();
      emu.control.close();
      await handle.drop();
    },
  };
}

function abortable<T>(work: T | Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(work)
      .then(resolve, reject)
      .finally(() => {
        signal.removeEventListener("abort", onAbort);
      });
  });
}

const SECRET_FIELDS = new Set(["access_token", "refresh_token", "proxy_access_token"]);

function collectSecrets(text: string, into: Set<string>): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof body !== "object" || body === null) return;
  for (const [key, value] of Object.entries(body)) {
    if (SECRET_FIELDS.has(key) && typeof value === "string") into.add(value);
  }
}

function arrivalOf(body: unknown, emu: PlatformEmulator): WebhookArrival {
  const event = JSON.parse(typeof body === "string" ? body : "{}") as {
    task_id?: string;
    status?: string;
  };
  const taskId = event.task_id ?? "";
  return {
    taskId,
    status: event.status ?? "",
    platformStatus: emu.control.getTask(taskId)?.status,
  };
}
