import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import { maintenanceRounds } from "../../lib/periodic.ts";
import { queryRows } from "../../db/rows.ts";

/** A table whose old rows are deleted: its key, the time column and how old a row may get. */
interface PrunedTable {
  table: string;
  key: string;
  time: string;
  maxAgeMs: (retention: Config["retention"]) => number;
}

/**
 * What retention deletes. Webhook events only guard against a redelivery being applied twice,
 * and the platform stops redelivering within hours; task events are the live-event replay log
 * (a client away longer misses older changes in its replay; the tasks keep their latest state);
 * rejections are for the owner's troubleshooting; sign-in attempts and hand-off codes are useless
 * once expired.
 */
export const PRUNED_TABLES = [
  {
    table: "webhook_events",
    key: "event_id",
    time: "received_at",
    maxAgeMs: (r) => r.webhookEventsMs,
  },
  { table: "task_events", key: "id", time: "created_at", maxAgeMs: (r) => r.taskEventsMs },
  {
    table: "webhook_rejections",
    key: "id",
    time: "received_at",
    maxAgeMs: (r) => r.webhookRejectionsMs,
  },
  {
    table: "login_attempts",
    key: "state_hash",
    time: "expires_at",
    maxAgeMs: (r) => r.expiredSignInMs,
  },
  {
    table: "handoff_codes",
    key: "code_hash",
    time: "expires_at",
    maxAgeMs: (r) => r.expiredSignInMs,
  },
] as const satisfies readonly PrunedTable[];

export type PrunedTableName = (typeof PRUNED_TABLES)[number]["table"];
/** Rows deleted, by table. */
export type PruneOutcome = Record<PrunedTableName, number>;

export interface RetentionDeps {
  db: AppDatabase;
  clock: Clock;
  config: Pick<Config, "retention">;
  logger: Logger;
}

/**
 * Deletes rows older than their table's retention age, in bounded batches (each its own short
 * statement, so no long lock and no huge transaction). Every instance runs it: a batch picks its
 * rows `FOR UPDATE SKIP LOCKED`, so instances pruning at once delete different rows, never the
 * same ones twice. `overture-backend prune` runs one round by hand.
 */
export function createRetention(deps: RetentionDeps, options: { batchSize?: number } = {}) {
  const { db, clock, config, logger } = deps;
  const batchSize = options.batchSize ?? 1_000;

  async function pruneTable(
    target: PrunedTable,
    cutoff: Date,
    stopped: () => boolean,
  ): Promise<number> {
    const table = sql.identifier(target.table);
    const key = sql.identifier(target.key);
    let deleted = 0;
    for (;;) {
      const rows = await queryRows(
        db,
        sql`
        delete from ${table} where ${key} in (
          select ${key} from ${table} where ${sql.identifier(target.time)} < ${cutoff.toISOString()}
          limit ${batchSize} for update skip locked)
        returning 1`,
      );
      deleted += rows.length;
      if (rows.length < batchSize || stopped()) return deleted;
      // PGlite answers without real I/O: let requests in between batches.
      await nextTurn();
    }
  }

  async function round(stopped: () => boolean): Promise<PruneOutcome> {
    const outcome = Object.fromEntries(PRUNED_TABLES.map((t) => [t.table, 0])) as PruneOutcome;
    const now = clock.now();
    for (const target of PRUNED_TABLES) {
      if (stopped()) break;
      const cutoff = new Date(now - target.maxAgeMs(config.retention));
      outcome[target.table] = await pruneTable(target, cutoff, stopped);
    }
    const total = Object.values(outcome).reduce((sum, n) => sum + n, 0);
    if (total > 0) logger.info({ deleted: outcome }, "retention: old rows deleted");
    return outcome;
  }

  return maintenanceRounds({
    run: round,
    fallback: Object.fromEntries(PRUNED_TABLES.map((t) => [t.table, 0])) as PruneOutcome,
    intervalMs: config.retention.intervalMs,
    logger,
    what: "retention round",
  });
}

export type Retention = ReturnType<typeof createRetention>;
