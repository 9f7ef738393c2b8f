import { and, eq, sql } from "drizzle-orm";
import { tasks } from "../../db/schema/index.ts";
import { arrayLiteral, statementName } from "../../db/script.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { unheld } from "./queue-hold.ts";
import { accountKey } from "./queue-wake.ts";
import type { Account } from "../tasks/record.ts";
import type { DispatchDeps } from "./deps.ts";

type Drain = (account: Account) => Promise<void>;

/**
 * The queue's periodic round: drains every account that has queued tasks and no hold, up to
 * `accountsPerRound` of them, one after the other, then reports the queue's depth. Held accounts
 * are left out: they would take a place among this round's accounts for nothing.
 */
export async function drainQueuedAccounts(
  deps: DispatchDeps,
  drain: Drain,
  accountsPerRound: number,
): Promise<void> {
  const { db, clock, metrics } = deps;
  const accounts = await db
    .selectDistinct({ userId: tasks.userId, namespace: tasks.namespace })
    .from(tasks)
    .where(
      and(
        eq(tasks.status, "queued"),
        unheld(db, tasks.userId, tasks.namespace, new Date(clock.now())),
      ),
    )
    .limit(accountsPerRound);
  for (const account of accounts) await drain(account);
  const [depth] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(eq(tasks.status, "queued"));
  metrics.queueDepth.set(depth?.n ?? 0);
}

const QUEUED_AMONG_TEXT = `select distinct user_id, namespace from tasks
  where status = 'queued' and user_id = any($1::bigint[])`;
const QUEUED_AMONG_NAME = statementName("overture_queued_among", QUEUED_AMONG_TEXT);

/**
 * Drains the accounts whose tasks just ended, if they have queued tasks. Which of them do is one
 * read, whatever their number (a webhook batch ends tasks of up to a few hundred accounts), and
 * prepared once: it runs after most commits, and most accounts queue nothing.
 */
export function freedAccountDrains(deps: DispatchDeps, drain: Drain) {
  const { database, logger } = deps;
  const checks = new Set<Promise<void>>();
  const queuedAmong = (userIds: readonly number[]) =>
    database.query<{ user_id: string | number; namespace: string }>({
      name: QUEUED_AMONG_NAME,
      text: QUEUED_AMONG_TEXT,
      params: [arrayLiteral(userIds)],
    });

  /** Drains those of `accounts` that have queued tasks (their tasks just ended). */
  function kick(accounts: readonly Account[]): void {
    const freed = new Set(accounts.map(accountKey));
    const userIds = [...new Set(accounts.map((a) => a.userId))];
    const check = queuedAmong(userIds)
      .then((rows) => {
        for (const row of rows) {
          // bigint: text from node-postgres
          const account = { userId: Number(row.user_id), namespace: row.namespace };
          if (freed.has(accountKey(account))) void drain(account);
        }
      })
      .catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, "reading queued accounts failed");
      })
      .finally(() => checks.delete(check));
    checks.add(check);
  }

  return {
    kick,
    /** The reads running now (each may start drains). */
    running: () => [...checks],
  };
}
