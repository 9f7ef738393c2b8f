import { randomBytes } from "node:crypto";
import { readQuota } from "@overture/core/schemas";
import { and, asc, eq, sql } from "drizzle-orm";
import { tasks } from "../../db/schema/index.ts";
import { arrayLiteral, statementName } from "../../db/script.ts";
import { ApiError } from "../../lib/errors.ts";
import { sha256Hex } from "../../lib/secrets.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import { holdQueued, queuedOf, unheld } from "./queue-hold.ts";
import { accountKey, holdWakes, type WakeTimers } from "./queue-wake.ts";
import type { Account, TaskRuntime } from "./runtime.ts";
import { sweepStaleSubmits as sweepStale } from "./queue-sweep.ts";
import { quotaCheckHoldMs, submitClaimed } from "./submit.ts";
import type { TaskRow } from "../../db/schema/index.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { periodicRounds } from "../../lib/periodic.ts";

export interface QueueOptions {
  /**
   * Period of the background round (drain every account with queued tasks, sweep); also the
   * shortest hold a refused submit's `Retry-After` puts on an account (tasks/submit.ts).
   */
  intervalMs?: number;
  /** A `submitting` row older than this was orphaned by a crashed instance. */
  staleSubmitMs?: number;
  /** Accounts drained per background round. */
  accountsPerRound?: number;
  /** Timers that wake a held account's drain when its hold ends (queue-wake.ts); tests fake them. */
  wakeTimers?: WakeTimers;
}

const QUEUED_AMONG_TEXT = `select distinct user_id, namespace from tasks
  where status = 'queued' and user_id = any($1::bigint[])`;
const QUEUED_AMONG_NAME = statementName("overture_queued_among", QUEUED_AMONG_TEXT);

/**
 * The local queue (spec 8: "queue submissions on the client side"): tasks wait as `queued` and
 * are submitted oldest first per (user, namespace) while the platform reports free quota. A drain
 * runs after a task is created, when a task of that account ends, and from a periodic round.
 * Rows are claimed with `FOR UPDATE SKIP LOCKED` and committed as `submitting` before the platform
 * is called. Within an instance drains of one account are serialised; across instances the
 * platform's quota answer (QUOTA_EXHAUSTED → back to the queue) is the arbiter. A refusal that
 * carries `Retry-After`, of the submit or of the quota check before it (429), holds all the
 * account's queued tasks until then (at least a round, at most `MAX_SUBMIT_HOLD_MS`;
 * queue-hold.ts): drains and rounds skip a held account. While the rounds run, the end of a hold
 * set here also wakes the account's drain (queue-wake.ts) instead of waiting for the next round.
 */
export function createTaskQueue(runtime: TaskRuntime, options: QueueOptions = {}) {
  const { deps } = runtime;
  const { db, clock, metrics, logger } = deps;
  const drains = new Map<string, { again: boolean; done: Promise<void> }>();
  const roundMs = options.intervalMs ?? 10_000;
  const wakes = holdWakes({
    clock,
    wake: (account) => void drain(account),
    ...(options.wakeTimers ? { timers: options.wakeTimers } : {}),
  });

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

  /**
   * Free quota as the platform reports it; Infinity when its answer does not say (the submit
   * will). A `Retry-After` longer than the client waits (backend.ts) comes back as an error, and
   * the queue holds the account instead of sleeping inside a round.
   */
  async function available(account: Account, tokenId: number): Promise<number> {
    const body = await deps.proxyTokens.withProxyToken(
      account.userId,
      account.namespace,
      tokenId,
      (token) => deps.platform.getAvailableQuota(token),
    );
    return readQuota(body).available ?? Number.POSITIVE_INFINITY;
  }

  async function claimNext(
    account: Account,
    webhookExpected: boolean,
  ): Promise<{ row: TaskRow; key: string } | undefined> {
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
      await runtime.save(tx, [next], "queue");
      return { row: next, key };
    });
  }

  async function drainOnce(account: Account, knownAvailable?: number): Promise<void> {
    const [head] = await db
      .select({ tokenId: tasks.tokenId })
      .from(tasks)
      .where(
        and(
          queuedOf(account),
          unheld(db, account.userId, account.namespace, new Date(clock.now())),
        ),
      )
      .orderBy(asc(tasks.createdAt), asc(tasks.id))
      .limit(1);
    if (!head) return; // nothing queued, or held: a round after the hold submits
    let free: number;
    try {
      free = knownAvailable ?? (await available(account, head.tokenId));
    } catch (error) {
      if (await holdAfterRefusedCheck(account, error)) return;
      if (!(error instanceof ApiError && error.code === ACCESS_TOKEN_NOT_FOUND)) throw error;
      // No later round can submit them: say so on each task instead of retrying for ever. Each
      // pass takes one token's tasks out of the queue, so this ends.
      await rejectQueued(account, head.tokenId, error.message);
      return drainOnce(account);
    }
    const webhookExpected = await deps.webhookSecrets.has(account.userId, account.namespace);
    while (free > 0) {
      const claimed = await claimNext(account, webhookExpected);
      if (!claimed) return;
      const { row } = claimed;
      if (row.webhookKeyHash) {
        const { userId, namespace, id: taskId } = row;
        runtime.keyIssued({ userId, namespace, taskId, keyHash: row.webhookKeyHash });
      }
      const { outcome, heldUntil } = await submitClaimed(runtime, row, claimed.key, roundMs);
      if (outcome === "requeued") {
        // Quota full or platform unreachable: a later round retries, after the hold if any.
        if (heldUntil) await hold(account, heldUntil);
        return;
      }
      if (outcome !== "rejected") free -= 1;
    }
  }

  /** Ends the account's queued tasks that were to use `tokenId` as rejected, with `message`. */
  async function rejectQueued(account: Account, tokenId: number, message: string): Promise<void> {
    const queued = await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(queuedOf(account), eq(tasks.tokenId, tokenId)));
    for (const { id } of queued)
      await runtime.update(id, "queue", (row, now) =>
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

  /** Drains an account; concurrent calls coalesce into one running drain plus one more round. */
  function drain(account: Account, knownAvailable?: number): Promise<void> {
    const key = accountKey(account);
    const running = drains.get(key);
    if (running) {
      running.again = true;
      return running.done;
    }
    const state = { again: false, done: Promise.resolve() };
    // Read through a function: a concurrent call sets it while the drain awaits.
    const again = () => state.again;
    state.done = (async () => {
      let known = knownAvailable;
      do {
        state.again = false;
        try {
          await drainOnce(account, known);
        } catch (error) {
          logger.warn(
            { userId: account.userId, namespace: account.namespace, err: errorMessage(error) },
            "queue drain failed",
          );
          return;
        }
        known = undefined;
      } while (again());
    })().finally(() => drains.delete(key));
    drains.set(key, state);
    return state.done;
  }

  /** Turns `submitting` rows orphaned by a crash into `unknown` (queue-sweep.ts). */
  const sweepStaleSubmits = () => sweepStale(runtime, options.staleSubmitMs ?? 120_000);

  async function runRound(): Promise<void> {
    await sweepStaleSubmits();
    // Held accounts are left out: they would take a place among this round's accounts for nothing.
    const accounts = await db
      .selectDistinct({ userId: tasks.userId, namespace: tasks.namespace })
      .from(tasks)
      .where(
        and(
          eq(tasks.status, "queued"),
          unheld(db, tasks.userId, tasks.namespace, new Date(clock.now())),
        ),
      )
      .limit(options.accountsPerRound ?? 50);
    for (const account of accounts) await drain(account);
    const [depth] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(eq(tasks.status, "queued"));
    metrics.queueDepth.set(depth?.n ?? 0);
  }

  // Which of `accounts` have queued tasks: one read, whatever their number (a webhook batch
  // ends tasks of up to a few hundred accounts). Prepared once: it runs after most commits.
  const queuedAmong = (userIds: readonly number[]) =>
    deps.database.query<{ user_id: string | number; namespace: string }>({
      name: QUEUED_AMONG_NAME,
      text: QUEUED_AMONG_TEXT,
      params: [arrayLiteral(userIds)],
    });
  const checks = new Set<Promise<void>>();

  /** Drains those of `accounts` that have queued tasks (their tasks just ended). */
  function kickFreed(accounts: readonly Account[]): void {
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

  /** Resolves when no drain (nor the read that starts drains) is running in this instance. */
  async function settle(): Promise<void> {
    while (drains.size > 0 || checks.size > 0) {
      await Promise.all([...checks, ...[...drains.values()].map((d) => d.done)]);
    }
  }

  const rounds = periodicRounds({
    run: runRound,
    fallback: undefined,
    intervalMs: roundMs,
    logger,
    what: "queue round",
    ...(deps.outages ? { outages: deps.outages } : {}),
  });

  return {
    drain,
    holdAfterRefusedCheck,
    settle,
    kickFreed,
    sweepStaleSubmits,
    /** One background round now (tests drive it by hand). */
    runOnce: rounds.runOnce,
    start(): Promise<void> {
      wakes.start();
      return rounds.start();
    },
    async stop(): Promise<void> {
      // First: a drain that ends after this sets no new timer.
      wakes.stop();
      await rounds.stop();
      await settle();
    },
  };
}

export type TaskQueue = ReturnType<typeof createTaskQueue>;
