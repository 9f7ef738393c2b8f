// Test-only fake of the clock; production code never imports this module.
import type { Sleep } from "./retry.ts";

export interface FakeClock {
  now: () => number;
  sleep: Sleep;
  /** Every sleep requested, in ms. */
  sleeps: number[];
  /** Runs before each sleep; a test aborts or inspects here. */
  onSleep?: (ms: number) => void;
  time: number;
}

/** A clock that only moves when slept on: a sleep advances it at once (tests run instantly). */
export function createFakeClock(start = Date.UTC(2025, 0, 1)): FakeClock {
  const clock: FakeClock = {
    time: start,
    sleeps: [],
    now: () => clock.time,
    sleep: (ms, signal) => {
      clock.sleeps.push(ms);
      clock.onSleep?.(ms);
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      clock.time += ms;
      return Promise.resolve();
    },
  };
  return clock;
}
