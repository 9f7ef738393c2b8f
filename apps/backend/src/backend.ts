import { createPlatformClient, type PlatformClient } from "@overture/core/client";
import { createApp } from "./app.ts";
import type { Database } from "./db/client.ts";
import { openDatabase } from "./db/open.ts";
import type { Config } from "./env/env.ts";
import { type Clock, systemClock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { createMetrics } from "./lib/metrics.ts";
import { createOutageLog } from "./lib/outage-log.ts";
import { createVault } from "./lib/vault.ts";
import { createSseTakeover, type SseTakeover } from "./server/sse-takeover.ts";
import { webhookEdge } from "./server/webhook-edge.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AppDeps, type BaseDeps, createServices } from "./services/index.ts";

/** Longest `Retry-After` the platform client waits out itself before retrying. */
const PLATFORM_MAX_RETRY_AFTER_MS = 5_000;

export interface BackendOverrides {
  database?: Database;
  /** `database` is already migrated and the backend closes it on stop (index.ts opens it early). */
  ownDatabase?: "migrated";
  clock?: Clock;
  logger?: Logger;
  /** `fetch` the platform client uses (tests route it to an in-process emulator). */
  fetch?: typeof fetch;
  platform?: PlatformClient;
  /** Skip background workers (reconciler, queue drain); tests drive them by hand. */
  workers?: boolean;
}

export interface Backend {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** Live-event responses the app offers to be served on the Node response (server/listen.ts). */
  takeover: SseTakeover;
  /** Webhook deliveries served on the Node request before the app (server/webhook-edge.ts). */
  edge: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** Starts the background workers, in the order `createServices` lists them. */
  start(): Promise<void>;
  /**
   * The first step of a graceful stop: readiness answers 503 from now on and every live stream
   * ends with a retry hint (streams never end by themselves, so they would hold the drain open).
   */
  beginShutdown(): Promise<void>;
  /** Stops the workers in reverse order (in-flight work finishes, streams close), then the database. */
  stop(): Promise<void>;
}

/** Opens the database, applies migrations and builds the app with every service wired. */
export async function createBackend(
  config: Config,
  overrides: BackendOverrides = {},
): Promise<Backend> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  if (config.production && config.metricsToken === undefined) {
    // Request counts by route and status are worth hiding from the internet; say so once.
    logger.warn(
      "METRICS_TOKEN is unset, so /metrics is public: set it, or restrict /metrics at the proxy",
    );
  }
  const database = overrides.database ?? (await openDatabase(config.database));
  const closesDatabase = !overrides.database || overrides.ownDatabase === "migrated";
  const lifecycle = { migrated: false, shuttingDown: false };
  if (overrides.ownDatabase !== "migrated") await database.migrate();
  lifecycle.migrated = true;

  const clock = overrides.clock ?? systemClock;
  const base: BaseDeps = {
    config,
    database,
    db: database.db,
    clock,
    fetch: overrides.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    logger,
    metrics: createMetrics(),
    vault: createVault(config.encryptionKeys),
    lifecycle,
    outages: createOutageLog({ logger, ping: () => database.ping() }),
    platform:
      overrides.platform ??
      createPlatformClient({
        baseUrl: config.platform.baseUrl,
        apiUrl: config.platform.apiUrl,
        clientId: config.platform.clientId,
        clientSecret: config.platform.clientSecret,
        clientAuth: config.platform.clientAuth,
        now: () => clock.now(),
        // A longer Retry-After is not slept out inside a request or a queue round: the error
        // carries it, and the queue holds the account that long (services/dispatch/queue-hold.ts).
        retry: { maxRetryAfterMs: PLATFORM_MAX_RETRY_AFTER_MS },
        ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
      }),
  };
  const { services, workers } = createServices(base);
  const deps: AppDeps = { ...base, services };
  const takeover = createSseTakeover();
  const app = createApp(deps, takeover);

  return {
    app,
    deps,
    takeover,
    edge: webhookEdge(deps),
    async start() {
      if (overrides.workers === false) return;
      for (const worker of workers) await worker.start();
    },
    async beginShutdown() {
      lifecycle.shuttingDown = true;
      // Archiving a result can take longer than the whole grace period: it stops claiming and
      // aborts now, not after the drain (services/archive/archiver.ts).
      deps.services.archive.archiver?.halt();
      await deps.services.liveEvents.stop();
      deps.services.devRelay.streams.endAll();
    },
    async stop() {
      lifecycle.shuttingDown = true;
      for (const worker of [...workers].reverse()) await worker.stop();
      base.outages.stop();
      if (closesDatabase) await database.close();
    },
  };
}
