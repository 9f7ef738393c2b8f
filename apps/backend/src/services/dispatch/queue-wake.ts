import type { Clock } from "../../lib/clock.ts";
import { systemTimers, type Timers } from "../../lib/timers.ts";
import type { Account } from "../tasks/record.ts";

// When a hold this instance set ends, its queued tasks would otherwise wait for the next periodic
// round (up to a round later). A timer per held account drains it then. Only a shortcut: the
// hold lives in the rows (queue-hold.ts), the drain reads it again, and other instances (or this
// one after a restart) still submit the tasks from their rounds.

/** The timer functions the wakes use; tests pass their own to fire a wake by hand. */
export type WakeTimers = Timers;

/**
 * A timer fires on the millisecond it was due or just before it by the wall clock (Node rounds);
 * the drain would then find the hold not quite over and leave the tasks to the next round.
 */
export const WAKE_SLACK_MS = 50;

export const accountKey = (a: Account) => `${a.userId}:${a.namespace}`;

/**
 * Calls `wake(account)` once each hold set by {@link held} has ended, while started (between
 * `start` and `stop`, as the queue's rounds run). One timer per account: the later of two holds
 * wins, a shorter one changes nothing. `stop` clears every pending timer.
 */
export function holdWakes(options: {
  clock: Clock;
  wake: (account: Account) => void;
  timers?: WakeTimers;
}) {
  const { clock, wake } = options;
  const timers = options.timers ?? systemTimers;
  const pending = new Map<string, { until: number; handle: unknown }>();
  let started = false;

  return {
    start(): void {
      started = true;
    },
    /** The account's queued tasks were just held until `until`. */
    held(account: Account, until: Date): void {
      if (!started) return;
      const key = accountKey(account);
      const at = until.getTime();
      const current = pending.get(key);
      if (current && current.until >= at) return;
      if (current) timers.clear(current.handle);
      const handle = timers.set(
        () => {
          pending.delete(key);
          wake(account);
        },
        Math.max(0, at - clock.now()) + WAKE_SLACK_MS,
      );
      pending.set(key, { until: at, handle });
    },
    stop(): void {
      started = false;
      for (const { handle } of pending.values()) timers.clear(handle);
      pending.clear();
    },
  };
}

export type HoldWakes = ReturnType<typeof holdWakes>;
