import { and, eq, gt, notExists, sql, type AnyColumn } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppDatabase } from "../../db/client.ts";
import { tasks } from "../../db/schema/index.ts";
import type { HoldWakes } from "./queue-wake.ts";
import type { Account } from "../tasks/record.ts";
import type { DispatchDeps } from "./deps.ts";
import { quotaCheckHoldMs } from "./submit.ts";

// A submit the platform refused with `Retry-After` holds the account's queue: the refused task,
// and every other queued task of the account, keep the hold's end in `next_poll_at` (unused
// while a task is queued). In the database, so a hold outlives a restart and binds every
// instance; the quota being the account's, one held task holds them all.

/** The account's tasks waiting in the local queue. */
export const queuedOf = (account: Account) =>
  and(
    eq(tasks.userId, account.userId),
    eq(tasks.namespace, account.namespace),
    eq(tasks.status, "queued"),
  );

const held = alias(tasks, "held");

/**
 * No queued task of the account is held at `now`. `userId` and `namespace` are values, or the
 * outer query's columns (a round's list of accounts).
 */
export const unheld = (
  db: AppDatabase,
  userId: number | AnyColumn,
  namespace: string | AnyColumn,
  now: Date,
) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(held)
      .where(
        and(
          eq(held.userId, userId),
          eq(held.namespace, namespace),
          eq(held.status, "queued"),
          gt(held.nextPollAt, now),
        ),
      ),
  );

/**
 * Holds every queued task of the account until `until` (the refused one already is): the hold
 * then stands even if that task is cancelled. Never shortens a longer hold another instance's
 * refusal set.
 */
export async function holdQueued(db: AppDatabase, account: Account, until: Date): Promise<void> {
  await db
    .update(tasks)
    .set({ nextPollAt: sql`greatest(${tasks.nextPollAt}, ${until.toISOString()}::timestamptz)` })
    .where(queuedOf(account));
}

/**
 * Holds on accounts' queues, each written to the rows (above) and given to `wakes`, which drains
 * the account when its hold ends (queue-wake.ts).
 */
export function accountHolds(deps: DispatchDeps, wakes: Pick<HoldWakes, "held">, roundMs: number) {
  const { db, clock, logger } = deps;

  /** Holds the account's queued tasks until `until` and wakes its drain then. */
  async function hold(account: Account, until: Date): Promise<void> {
    await holdQueued(db, account, until);
    wakes.held(account, until);
  }

  /**
   * After a quota check refused with 429 and `Retry-After` (submit.ts `quotaCheckHoldMs`): holds
   * the account's queued tasks that long and answers true; any other failure holds nothing.
   */
  async function holdAfterRefusedCheck(account: Account, error: unknown): Promise<boolean> {
    const holdMs = quotaCheckHoldMs(error, roundMs);
    if (holdMs === undefined) return false;
    const heldUntil = new Date(clock.now() + holdMs);
    const { userId, namespace } = account;
    logger.info({ userId, namespace, heldUntil: heldUntil.toISOString() }, "quota check refused");
    await hold(account, heldUntil);
    return true;
  }

  return { hold, holdAfterRefusedCheck };
}

export type AccountHolds = ReturnType<typeof accountHolds>;
