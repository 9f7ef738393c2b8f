import { errorMessage } from "../../lib/error-summary.ts";
import { WEBHOOK_SECRETS_CHANGED_CHANNEL } from "../../db/channels.ts";
import { batchApplier } from "../tasks/apply-batch.ts";
import { createAnnouncer, type Announcer } from "../events/announcer.ts";
import { createBatcher } from "./batcher.ts";
import { createIntake, type Delivery, type IntakeAnswer } from "./intake.ts";
import { createIntakeLookup, type IntakeLookup } from "./lookup.ts";
import { createRejectionRecorder } from "./rejections.ts";
import type { AppDatabase, Database } from "../../db/client.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { WebhookSecretService } from "../credentials/webhook-secrets.ts";
import type { IssuedCallbackKey, TaskRecord } from "../tasks/record.ts";

export type { Delivery, IntakeAnswer } from "./intake.ts";

/** What webhook intake is built from. */
export interface IntakeDeps {
  /** The task record: intake's batches apply with its context and tell it what they committed. */
  record: TaskRecord;
  db: AppDatabase;
  database: Database;
  clock: Clock;
  config: Pick<Config, "webhook">;
  logger: Logger;
  metrics: Metrics;
  webhookSecrets: Pick<WebhookSecretService, "has" | "secretsFor" | "onChange">;
  /** Subscribes to the callback keys issued on this instance (services/dispatch). */
  onKeyIssued: (listener: (key: IssuedCallbackKey) => void) => void;
}

/**
 * Webhook intake as one service: verification, group commit and the rejection log. A worker:
 * `start` runs the rejection flush timer; `stop` waits for committing batches and flushes.
 */
export function createWebhookIntake(
  deps: IntakeDeps,
  options: {
    /** Called after a commit that appended task events, with the highest id appended (this
     * instance's live streams read them). */
    committedEvents?: (lastEventId: bigint) => void;
  } = {},
) {
  const rejections = createRejectionRecorder({
    db: deps.db,
    metrics: deps.metrics,
    logger: deps.logger,
  });
  // Task events are announced after commit, coalesced, on another connection: a NOTIFY in the
  // transaction would hold Postgres' commit-time notify lock and serialise the batches' commits.
  // Not on PGlite: its one client is this process, whose streams hear of each commit directly
  // (committedEvents), so a NOTIFY would tell no one, for one more call blocking the event loop.
  const announcer =
    deps.database.driver === "pg"
      ? createAnnouncer({ database: deps.database, logger: deps.logger })
      : undefined;
  // Cache freshness on the domain clock: a cached previous secret must not outlive its grace.
  const lookup = createIntakeLookup({
    database: deps.database,
    secrets: () => deps.webhookSecrets,
    now: () => deps.clock.now(),
  });
  const batcher = groupCommit(deps, lookup, announcer, options.committedEvents);
  // The first callback of a task submitted here finds its target without a read.
  deps.onKeyIssued(({ keyHash, taskId, userId, namespace }) => {
    lookup.prime(keyHash, { taskId, userId, namespace, platformTaskId: null });
  });
  deps.webhookSecrets.onChange((userId, namespace) => {
    lookup.forgetSecrets(userId, namespace);
  });
  // Changes made on other instances. Subscribed before the first delivery is handled (nothing
  // is cached before that); a missed notification leaves the cache's own 30 s lifetime.
  let unlisten: Promise<(() => Promise<void>) | undefined> | undefined;
  const listenForChanges = () =>
    (unlisten ??= deps.database
      .listen(WEBHOOK_SECRETS_CHANGED_CHANNEL, (payload) => {
        const colon = payload.indexOf(":");
        lookup.forgetSecrets(Number(payload.slice(0, colon)), payload.slice(colon + 1));
      })
      .catch((error: unknown) => {
        unlisten = undefined; // try again with the next delivery
        deps.logger.warn(
          { err: errorMessage(error) },
          "could not listen for webhook secret changes",
        );
        return undefined;
      }));
  const intake = createIntake({
    lookup,
    batcher,
    rejections,
    metrics: deps.metrics,
    logger: deps.logger,
    now: () => deps.clock.now(),
    toleranceMs: deps.config.webhook.toleranceMs,
  });

  return {
    async handle(delivery: Delivery): Promise<IntakeAnswer> {
      await listenForChanges();
      return intake.handle(delivery);
    },
    /** The owner's recent refused deliveries. */
    listRejections: (userId: number, limit: number, cursor?: number) =>
      rejections.list(userId, limit, cursor),
    /** Writes queued rejection records now (tests). */
    flushRejections: () => rejections.flush(),
    start: () => rejections.start(),
    async stop(): Promise<void> {
      await batcher.drain();
      await announcer?.flush();
      await rejections.stop();
      const stopListening = await unlisten;
      unlisten = undefined;
      await stopListening?.();
    },
  };
}

/**
 * The group-commit batcher of intake: each batch applied in one transaction of its own, then its
 * task events told to this instance's streams, announced to the others and its freed quota to
 * the record's listeners.
 */
function groupCommit(
  deps: IntakeDeps,
  lookup: IntakeLookup,
  announcer: Announcer | undefined,
  committedEvents: ((lastEventId: bigint) => void) | undefined,
) {
  const context = () => ({ ...deps.record.applyContext(), announceAfterCommit: true });
  return createBatcher({
    metrics: deps.metrics,
    // Postgres: two round trips per batch. PGlite: two calls into the engine, which block this
    // process's event loop while they run (tasks/apply-batch.ts).
    transact: batchApplier(deps.database, context),
    onCommitted: (result) => {
      if (result.lastEventId !== undefined) committedEvents?.(result.lastEventId);
      announcer?.announce(result.lastEventId);
      deps.record.committed(result);
    },
    // node-postgres has a pool: a second batch can build while the first commits, once 16
    // events wait. Started for every few events, the second transaction cost Postgres more per
    // event, and the tail more than the wait it saved.
    maxInFlight: deps.database.driver === "pg" ? 2 : 1,
    minToOverlap: 16,
    // PGlite: a lookup is a turn of the event loop like a batch, and runs after one whose turn
    // came first. Letting it run first puts its events in this batch: one batch less to wait for.
    ...(deps.database.driver === "pglite" ? { oneMoreTurn: () => lookup.waiting } : {}),
  });
}

export type WebhookIntake = ReturnType<typeof createWebhookIntake>;
