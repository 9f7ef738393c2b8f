import type { PlatformClient } from "@overture/core/client";
import type { AppDatabase, Database } from "../../db/client.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { OutageLog } from "../../lib/outage-log.ts";
import type { ProxyTokenService } from "../credentials/proxy-tokens.ts";
import type { SelectionService } from "../credentials/selections.ts";
import type { WebhookSecretService } from "../credentials/webhook-secrets.ts";
import type { IssuedCallbackKey, TaskRecord } from "../tasks/record.ts";

/** The credential services dispatch calls (the credentials wing). */
export interface CredentialServices {
  proxyTokens: Pick<ProxyTokenService, "withProxyToken">;
  selections: Pick<SelectionService, "get">;
  webhookSecrets: Pick<WebhookSecretService, "has">;
}

/** What the dispatch wing (queue, submit, cancel, reconciler) is built from. */
export interface DispatchDeps extends CredentialServices {
  /** The task record every change of a task goes through. */
  record: TaskRecord;
  db: AppDatabase;
  database: Database;
  clock: Clock;
  config: Pick<Config, "publicUrl" | "tasks">;
  platform: PlatformClient;
  logger: Logger;
  metrics: Metrics;
  /** Where rounds that find the database unavailable report it (backend.ts); unset in unit tests. */
  outages?: Pick<OutageLog, "report">;
  /** Told of each callback key issued on this instance, before its submit (the intake's lookup). */
  keyIssued?: (key: IssuedCallbackKey) => void;
}
