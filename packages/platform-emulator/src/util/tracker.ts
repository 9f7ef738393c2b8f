/**
 * Keeps the promises of background work (webhook attempts) so tests and `control.settle()` can
 * wait until nothing is in flight, deterministically, instead of sleeping.
 */
export interface Tracker {
  track<T>(work: Promise<T>): Promise<T>;
  settle(): Promise<void>;
  readonly size: number;
}

export function createTracker(): Tracker {
  const inFlight = new Set<Promise<unknown>>();
  return {
    track(work) {
      const entry = work.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(entry);
      void entry.then(() => inFlight.delete(entry));
      return work;
    },
    async settle() {
      // Work may start more work (a delivery schedules nothing in flight, but a duplicate may).
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    get size() {
      return inFlight.size;
    },
  };
}
