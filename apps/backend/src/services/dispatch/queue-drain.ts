import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { tasks, type TaskRow } from "../../db/schema/index.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { ApiError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import type { AccountHolds } from "./queue-hold.ts";
import { queuedOf, unheld } from "./queue-hold.ts";
import { accountKey } from "./queue-wake.ts";
import { askQuota, freeQuota } from "./quota.ts";
import type { Account } from "../tasks/record.ts";
import type { DispatchDeps } from "./deps.ts";
import { submitClaimed } from "./submit.ts";

/** What one pass over an account's queue works with. */
export interface DrainContext {
  deps: DispatchDeps;
  holds: AccountHolds;
  /** The queue's round (submit.ts: the shortest hold a refusal sets). */
  roundMs: number;
}

/**
 * One pass over an account's queue: asks the platform for free quota (unless the caller just
 * did), then claims and submits the oldest unheld tasks while there is room. A refused quota
 * check or submit with `Retry-After` holds the account (queue-hold.ts) and ends the pass; the
 * queued tasks of an access token that no longer exists are rejected, since no later pass could
 * submit them.
 */
export async function drainOnce(
  ctx: DrainContext,
  account: Account,
  knownAvailable?: number,
): Promise<void> {
  const { deps, holds, roundMs } = ctx;
  const head = await headOfQueue(deps, account);
  if (!head) return; // nothing queued, or held: a round after the hold submits
  let free: number;
  try {
    free = knownAvailable ?? freeQuota(await askQuota(deps, account, head.tokenId));
  } catch (error) {
    if (await holds.holdAfterRefusedCheck(account, error)) return;
    if (!(error instanceof ApiError && error.code === ACCESS_TOKEN_NOT_FOUND)) throw error;
    // No later round can submit them: say so on each task instead of retrying for ever. Each
    // pass takes one token's tasks out of the queue, so this ends.
    await rejectQueued(deps, account, head.tokenId, error.message);
    return drainOnce(ctx, account);
  }
  const webhookExpected = await deps.webhookSecrets.has(account.userId, account.namespace);
  while (free > 0) {
    const claimed = await claimNext(deps, account, webhookExpected);
    if (!claimed) return;
    const { row } = claimed;
    if (row.webhookKeyHash) {
      const { userId, namespace, id: taskId } = row;
      deps.keyIssued?.({ userId, namespace, taskId, keyHash: row.webhookKeyHash });
    }
    const { outcome, heldUntil } = await submitClaimed(deps, row, claimed.key, roundMs);
    if (outcome === "requeued") {
      // Quota full or platform unreachable: a later round retries, after the hold if any.
      if (heldUntil) await holds.hold(account, heldUntil);
      return;
    }
    if (outcome !== "rejected") free -= 1;
  }
}

/** The access token of the account's oldest queued task that is not held, if any. */
async function headOfQueue(
  deps: DispatchDeps,
  account: Account,
): Promise<{ tokenId: number } | undefined> {
  const { db, clock } = deps;
  const [head] = await db
    .select({ tokenId: tasks.tokenId })
    .from(tasks)
    .where(
      and(queuedOf(account), unheld(db, account.userId, account.namespace, new Date(clock.now()))),
    )
    .orderBy(asc(tasks.createdAt), asc(tasks.id))
    .limit(1);
  return head;
}

/**
 * Claims the account's oldest unheld queued task (`FOR UPDATE SKIP LOCKED`) and commits it as
 * `submitting` with a new callback key, before the platform is called: a crash mid-submit
 * leaves evidence (queue-sweep.ts), never a silent resubmit.
 */
async function claimNext(
  deps: DispatchDeps,
  account: Account,
  webhookExpected: boolean,
): Promise<{ row: TaskRow; key: string } | undefined> {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const now = new Date(clock.now());
    const [row] = await tx
      .select()
      .from(tasks)
      // Held since the drain looked: another instance's submit was just refused.
      .where(and(queuedOf(account), unheld(db, account.userId, account.namespace, now)))
      .orderBy(asc(tasks.createdAt), asc(tasks.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!row) return undefined;
    const key = randomBytes(32).toString("base64url");
    const next: TaskRow = {
      ...row,
      status: "submitting",
      webhookKeyHash: sha256Hex(key),
      webhookExpected,
      submitStartedAt: now,
      updatedAt: now,
      // A hold it carried has passed; the submit's answer sets its next poll.
      nextPollAt: null,
    };
    await deps.record.save(tx, [next], "queue");
    return { row: next, key };
  });
}

/** Ends the account's queued tasks that were to use `tokenId` as rejected, with `message`. */
async function rejectQueued(
  deps: DispatchDeps,
  account: Account,
  tokenId: number,
  message: string,
): Promise<void> {
  const queued = await deps.db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(queuedOf(account), eq(tasks.tokenId, tokenId)));
  for (const { id } of queued)
    await deps.record.update(id, "queue", (row, now) =>
      row.status === "queued"
        ? {
            ...row,
            status: "rejected",
            error: message,
            finishedAt: now,
            updatedAt: now,
            nextPollAt: null,
          }
        : undefined,
    );
}

/**
 * Drains accounts one pass at a time each: a call for an account whose drain is running asks it
 * for one more pass and resolves with it, so concurrent calls coalesce. A failed pass is logged
 * and ends that drain; the next call or round tries again.
 */
export function coalescedDrains(
  pass: (account: Account, knownAvailable?: number) => Promise<void>,
  logger: Logger,
) {
  const running = new Map<string, { again: boolean; done: Promise<void> }>();

  function drain(account: Account, knownAvailable?: number): Promise<void> {
    const key = accountKey(account);
    const current = running.get(key);
    if (current) {
      current.again = true;
      return current.done;
    }
    const state = { again: false, done: Promise.resolve() };
    // Read through a function: a concurrent call sets it while the drain awaits.
    const again = () => state.again;
    state.done = (async () => {
      let known = knownAvailable;
      do {
        state.again = false;
        try {
          await pass(account, known);
        } catch (error) {
          logger.warn(
            { userId: account.userId, namespace: account.namespace, err: errorMessage(error) },
            "queue drain failed",
          );
          return;
        }
        known = undefined;
      } while (again());
    })().finally(() => running.delete(key));
    running.set(key, state);
    return state.done;
  }

  return {
    drain,
    /** The drains running now. */
    running: () => [...running.values()].map((state) => state.done),
  };
}
