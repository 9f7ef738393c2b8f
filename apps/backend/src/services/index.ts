import type { PlatformClient } from "@overture/core/client";
import type { AppDatabase, Database } from "../db/client.ts";
import type { Config } from "../env/env.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { OutageLog } from "../lib/outage-log.ts";
import type { Vault } from "../lib/vault.ts";
import { createRateLimitStore } from "./auth/rate-limits.ts";
import { createDeviceFlowService } from "./auth/device-flow.ts";
import { createSessionService } from "./auth/sessions.ts";
import { createSignInService } from "./auth/sign-in.ts";
import { createUserService } from "./auth/users.ts";
import { createAccessTokenCatalog } from "./credentials/access-tokens.ts";
import { createGrantService } from "./credentials/grants.ts";
import { createProxyTokenService } from "./credentials/proxy-tokens.ts";
import { createResealer } from "./credentials/reseal.ts";
import { createSelectionService } from "./credentials/selections.ts";
import { createWebhookSecretService } from "./credentials/webhook-secrets.ts";
import { createArchiveServices } from "./archive/index.ts";
import { createEventHub } from "./events/hub.ts";
import { createRetention } from "./retention/prune.ts";
import { createWebhookIntake } from "./intake/index.ts";
import { createDispatch } from "./dispatch/index.ts";
import { createLibrary } from "./library/library.ts";
import { createTaskPurge } from "./library/purge.ts";
import { createShareService } from "./library/shares.ts";
import { createTaskRecord } from "./tasks/record.ts";
import { createDevRelay } from "./dev-relay/index.ts";

/** What the running process knows about itself; read by `/readyz` and shutdown. */
export interface Lifecycle {
  migrated: boolean;
  shuttingDown: boolean;
}

/** Everything services are built from, injected so tests build the app with fakes where useful. */
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
  /** Where requests and rounds that find the database unavailable report it (rate-limited log). */
  outages: OutageLog;
}

/** Background work: a timer, a LISTEN, a flush. */
export interface Worker {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The backend's services, built once per app: the auth and credentials wings; the task record
 * (tasks/), the platform-facing dispatch of tasks (dispatch/: queue, submit, cancel, reconciler)
 * and the library (library/: rename, delete, purge, shares); webhook intake and live events,
 * which feed on the tasks. Each wing is given only the services it calls; none reaches back up
 * here.
 */
export function createServices(base: BaseDeps) {
  const sessions = createSessionService(base);
  const users = createUserService(base);
  const grants = createGrantService(base);
  const proxyTokens = createProxyTokenService(base, grants);
  const accessTokens = createAccessTokenCatalog(base, grants);
  const selections = createSelectionService(base, accessTokens);
  const webhookSecrets = createWebhookSecretService(base);
  const signIn = createSignInService(base, { users, grants, sessions });
  // The command-line sign-in (RFC 8628) of `overture-webhooks listen`.
  const deviceFlow = createDeviceFlowService(base, { signIn, sessions, users });
  const rateLimits = createRateLimitStore(base);
  const record = createTaskRecord(base);
  const dispatch = createDispatch({ ...base, record, proxyTokens, selections, webhookSecrets });
  const { tasks, taskQueue, reconciler } = dispatch;
  const archive = createArchiveServices(record, base);
  const { db, clock } = base;
  const library = createLibrary({
    record,
    db,
    clock,
    createTask: (...args) => tasks.create(...args),
  });
  // Removes deleted tasks and their archived audio once the undo window has passed.
  const taskPurge = createTaskPurge(base, { files: archive.files });
  const shares = createShareService({ record, db, clock, config: base.config });
  const liveEvents = createEventHub({
    database: base.database,
    metrics: base.metrics,
    logger: base.logger,
    outages: base.outages,
    // Streams of a session revoked on any instance end at once.
    revocations: (onRevoked) => sessions.onRevoked(onRevoked),
  });
  // This instance's streams get the intake's events at commit, not after their NOTIFY.
  const webhookIntake = createWebhookIntake(
    { ...base, record, webhookSecrets, onKeyIssued: dispatch.onKeyIssued },
    {
      committedEvents: (lastEventId) => {
        liveEvents.committedHere(lastEventId);
      },
    },
  );
  // The developer relay (RELAY_ENABLED): channels, their buffer and their listeners' streams.
  const devRelay = createDevRelay(base, {
    rateLimits,
    revocations: (onRevoked) => sessions.onRevoked(onRevoked),
    prune: () => deviceFlow.pruneExpired(),
  });
  // Re-seals values of retired encryption keys.
  const resealer = createResealer(base);
  // Deletes rows past their retention age (RETENTION_*), on every instance without overlap.
  const retention = createRetention(base);

  const services = {
    sessions,
    users,
    signIn,
    deviceFlow,
    rateLimits,
    grants,
    proxyTokens,
    accessTokens,
    selections,
    webhookSecrets,
    resealer,
    retention,
    tasks,
    library,
    taskPurge,
    shares,
    taskQueue,
    reconciler,
    archive,
    webhookIntake,
    liveEvents,
    devRelay,
  };
  /**
   * Started in this order and stopped in reverse: live events are up before anything appends
   * an event and down last, so intake, the queue, the reconciler, the archiver and archive
   * retention finish (and their events reach the streams) before the streams close.
   */
  const workers: Worker[] = [
    liveEvents,
    webhookIntake,
    taskQueue,
    reconciler,
    ...(archive.archiver ? [archive.archiver] : []),
    archive.retention,
    taskPurge,
    resealer,
    retention,
    ...(base.config.relay.enabled ? [devRelay] : []),
  ];
  return { services, workers };
}

export type Services = ReturnType<typeof createServices>["services"];

/** What routes are given: the base dependencies and every service. */
export interface AppDeps extends BaseDeps {
  services: Services;
}
