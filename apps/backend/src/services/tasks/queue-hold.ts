import { and, eq, gt, notExists, sql, type AnyColumn } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppDatabase } from "../../db/client.ts";
import { tasks } from "../../db/schema/index.ts";
import type { Account } from "./runtime.ts";

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
