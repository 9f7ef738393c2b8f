import { periodicRounds } from "../../lib/periodic.ts";
import { coalescedDrains, drainOnce } from "./queue-drain.ts";
import { accountHolds } from "./queue-hold.ts";
import { drainQueuedAccounts, freedAccountDrains } from "./queue-round.ts";
import { sweepStaleSubmits as sweepStale } from "./queue-sweep.ts";
import { holdWakes, type WakeTimers } from "./queue-wake.ts";
import type { DispatchDeps } from "./deps.ts";

export interface QueueOptions {
  /**
   * Period of the background round (drain every account with queued tasks, sweep); also the
   * shortest hold a refused submit's `Retry-After` puts on an account (submit.ts).
   */
  intervalMs?: number;
  /** A `submitting` row older than this was orphaned by a crashed instance. */
  staleSubmitMs?: number;
  /** Accounts drained per background round. */
  accountsPerRound?: number;
  /** Timers that wake a held account's drain when its hold ends (queue-wake.ts); tests fake them. */
  wakeTimers?: WakeTimers;
}

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
 * A pass over one account's queue is `drainOnce` (queue-drain.ts); the periodic round and the
 * drains after tasks end are in queue-round.ts.
 */
export function createTaskQueue(deps: DispatchDeps, options: QueueOptions = {}) {
  const { clock, logger } = deps;
  const roundMs = options.intervalMs ?? 10_000;
  const wakes = holdWakes({
    clock,
    wake: (account) => void drain(account),
    ...(options.wakeTimers ? { timers: options.wakeTimers } : {}),
  });
  const holds = accountHolds(deps, wakes, roundMs);
  const drains = coalescedDrains(
    (account, knownAvailable) => drainOnce({ deps, holds, roundMs }, account, knownAvailable),
    logger,
  );
  const { drain } = drains;
  const freed = freedAccountDrains(deps, drain);

  /** Turns `submitting` rows orphaned by a crash into `unknown` (queue-sweep.ts). */
  const sweepStaleSubmits = () => sweepStale(deps, options.staleSubmitMs ?? 120_000);

  const rounds = periodicRounds({
    async run() {
      await sweepStaleSubmits();
      await drainQueuedAccounts(deps, drain, options.accountsPerRound ?? 50);
    },
    fallback: undefined,
    intervalMs: roundMs,
    logger,
    what: "queue round",
    ...(deps.outages ? { outages: deps.outages } : {}),
  });

  /** Resolves when no drain (nor the read that starts drains) is running in this instance. */
  async function settle(): Promise<void> {
    for (;;) {
      const running = [...freed.running(), ...drains.running()];
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  return {
    /** Drains an account now; `knownAvailable`: the free quota its caller just read. */
    drain,
    holdAfterRefusedCheck: holds.holdAfterRefusedCheck,
    settle,
    /** Drains those of `accounts` that have queued tasks (their tasks just ended). */
    kickFreed: freed.kick,
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
