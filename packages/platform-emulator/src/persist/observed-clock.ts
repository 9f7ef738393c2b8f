import type { EmulatorClock } from "../clock/clock.ts";

/**
 * The same clock, calling `changed` whenever its work may have changed the state: after a timer
 * fired (a task moved, a retry went out) and after time was moved or rescaled by hand.
 */
export function observedClock(clock: EmulatorClock, changed: () => void): EmulatorClock {
  return {
    get mode() {
      return clock.mode;
    },
    get scale() {
      return clock.scale;
    },
    now: () => clock.now(),
    setScale(scale) {
      clock.setScale(scale);
      changed();
    },
    setTimer: (delayMs, fn) =>
      clock.setTimer(delayMs, () => {
        fn();
        changed();
      }),
    clearTimer: (id) => {
      clock.clearTimer(id);
    },
    async advance(ms, between) {
      await clock.advance(ms, between);
      changed();
    },
    tick: () => {
      clock.tick();
    },
    pendingTimers: () => clock.pendingTimers(),
    clearAll: () => {
      clock.clearAll();
    },
    close: () => {
      clock.close();
    },
  };
}
