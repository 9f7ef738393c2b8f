import type { createPlatformClient } from "@overture/core/client";
import type { AppDatabase, Database } from "./db/client.ts";
import type { Config } from "./env.ts";
import type { Clock } from "./lib/clock.ts";
import type { Logger } from "./lib/logger.ts";
import type { Metrics } from "./lib/metrics.ts";
import type { Vault } from "./lib/vault.ts";
import type { Services } from "./services/index.ts";

export type PlatformClient = ReturnType<typeof createPlatformClient>;

/** What the running process knows about itself; read by `/readyz` and shutdown. */
export interface Lifecycle {
  migrated: boolean;
  shuttingDown: boolean;
}

/** Everything services need, injected so tests build the app in-process with fakes where useful. */
export interface BaseDeps {
  config: Config;
  database: Database;
  db: AppDatabase;
  clock: Clock;
  platform: PlatformClient;
  /** Outbound HTTP beyond the platform client (result downloads); tests route it in-process. */
  fetch: typeof fetch;
  logger: Logger;
  metrics: Metrics;
  vault: Vault;
  lifecycle: Lifecycle;
}

export interface AppDeps extends BaseDeps {
  services: Services;
}
