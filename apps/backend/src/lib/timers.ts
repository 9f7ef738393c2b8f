/** One-shot timers a worker arms; tests pass their own to fire one by hand (no waiting). */
export interface Timers {
  set(fire: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const systemTimers: Timers = {
  // unref: a pending timer never keeps the process alive.
  set: (fire, ms) => setTimeout(fire, ms).unref(),
  clear: (handle) => {
    clearTimeout(handle as NodeJS.Timeout);
  },
};
