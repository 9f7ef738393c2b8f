export interface Timer {
  id: number;
  due: number;
  fn: () => void;
}

/** The clock's timers in due order; timers due at the same instant keep the order they were set. */
export interface TimerQueue {
  add(due: number, fn: () => void): number;
  remove(id: number): void;
  /** Removes and returns the first timer due at or before `limit`, if any. */
  takeDue(limit: number): Timer | undefined;
  /** The next timer to fire. */
  first(): Timer | undefined;
  clear(): void;
  readonly size: number;
}

export function createTimerQueue(): TimerQueue {
  let timers: Timer[] = [];
  let nextId = 1;
  return {
    add(due, fn) {
      const timer = { id: nextId++, due, fn };
      // Stable order: after every timer due at the same instant or earlier.
      const at = timers.findIndex((t) => t.due > timer.due);
      if (at === -1) timers.push(timer);
      else timers.splice(at, 0, timer);
      return timer.id;
    },
    remove(id) {
      timers = timers.filter((t) => t.id !== id);
    },
    takeDue(limit) {
      const first = timers[0];
      if (!first || first.due > limit) return undefined;
      timers.shift();
      return first;
    },
    first: () => timers[0],
    clear() {
      timers = [];
    },
    get size() {
      return timers.length;
    },
  };
}
