import { isPlatformError } from "@overture/core/errors";
import { sql } from "drizzle-orm";
import { reportOfTask } from "../tasks/merge.ts";
import type { DispatchDeps } from "./deps.ts";
import { errorBackoffDelay } from "../tasks/schedule.ts";
import { queryRows } from "../../db/rows.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { periodicRounds } from "../../lib/periodic.ts";

export interface ReconcilerOptions {
  intervalMs?: number;
  /** Tasks claimed per round. */
  batchSize?: number;
  /** Polls in flight at once within a round. */
  concurrency?: number;
  /** How far a claim pushes `next_poll_at` (the lease while the poll runs). */
  leaseMs?: number;
}

interface Claimed {
  id: string;
  user_id: string | number;
  namespace: string;
  token_id: string | number;
  platform_task_id: string;
  poll_errors: number;
}

// After this many "not found" answers in a row the platform has lost the task.
const NOT_FOUND_LIMIT = 5;

/**
 * Polls tasks the platform has not told us about recently (DESIGN step 4: webhook first, polling
 * second). A round claims due `waiting`/`in_progress` rows with `FOR UPDATE SKIP LOCKED`, pushing
 * `next_poll_at` forward as a lease in the same statement, so instances never poll one task
 * twice; polls run outside the transaction and are applied through the same merge as webhooks,
 * which also schedules the next poll (tasks/schedule.ts).
 */
export function createReconciler(deps: DispatchDeps, options: ReconcilerOptions = {}) {
  const { db, clock, metrics, logger } = deps;

  async function claim(): Promise<Claimed[]> {
    const now = new Date(clock.now()).toISOString();
    const lease = new Date(clock.now() + (options.leaseMs ?? 60_000)).toISOString();
    return queryRows<Claimed>(
      db,
      sql`
      update tasks set next_poll_at = ${lease}::timestamptz
      where id in (
        select id from tasks
        where next_poll_at <= ${now}::timestamptz and status in ('waiting', 'in_progress') and platform_task_id is not null
        order by next_poll_at
        limit ${options.batchSize ?? 50}
        for update skip locked)
      returning id, user_id, namespace, token_id, platform_task_id, poll_errors`,
    );
  }

  async function pollOne(task: Claimed): Promise<void> {
    const userId = Number(task.user_id);
    try {
      const polled = await deps.proxyTokens.withProxyToken(
        userId,
        task.namespace,
        Number(task.token_id),
        (token) => deps.platform.getTask(token, task.platform_task_id),
      );
      const result = await deps.record.apply([
        { ...reportOfTask(task.id, "poll", polled), polled: true },
      ]);
      metrics.polls.inc({ outcome: result.changed[0] ? "changed" : "unchanged" });
    } catch (error) {
      await recordError(task, error);
    }
  }

  async function recordError(task: Claimed, error: unknown): Promise<void> {
    const code = isPlatformError(error) ? error.code : (error as { code?: string }).code;
    metrics.polls.inc({ outcome: code === "PLATFORM_NOT_FOUND" ? "not_found" : "error" });
    logger.info({ taskId: task.id, code }, "poll failed");
    const errors = task.poll_errors + 1;
    const retryAfter = isPlatformError(error) ? error.retryAfterMs : undefined;
    const lost = code === "PLATFORM_NOT_FOUND" && errors >= NOT_FOUND_LIMIT;
    await deps.record
      .update(task.id, "poll", (row, now) => {
        if (row.status !== "waiting" && row.status !== "in_progress") return undefined;
        if (lost) {
          return {
            ...row,
            status: "unknown",
            error: "The platform no longer knows this task (it answered 404 to repeated queries).",
            nextPollAt: null,
            pollErrors: errors,
            updatedAt: now,
          };
        }
        const delay = errorBackoffDelay(errors, retryAfter, deps.record.random);
        return { ...row, pollErrors: errors, nextPollAt: new Date(now.getTime() + delay) };
      })
      .catch((e: unknown) => {
        logger.warn({ taskId: task.id, err: errorMessage(e) }, "recording a poll error failed");
      });
  }

  async function runRound(): Promise<number> {
    const claimed = await claim();
    const concurrency = Math.max(1, options.concurrency ?? 8);
    let next = 0;
    const lanes = Array.from({ length: Math.min(concurrency, claimed.length) }, async () => {
      for (let task = claimed[next++]; task; task = claimed[next++]) await pollOne(task);
    });
    await Promise.all(lanes);
    return claimed.length;
  }

  // `runOnce()`: one round now, resolving to the number of tasks polled (tests drive it by hand).
  return periodicRounds({
    run: runRound,
    fallback: 0,
    intervalMs: options.intervalMs ?? 1_000,
    logger,
    what: "reconciler round",
    // Every second: the first to notice an outage, which the outage log then follows.
    ...(deps.outages ? { outages: deps.outages } : {}),
  });
}

export type Reconciler = ReturnType<typeof createReconciler>;
