/**
 * Wraps `work` so a burst of calls runs it once: a call waits `delayMs` (gathering the calls
 * that follow) and never while a run is in flight; a call during a run schedules one more run
 * after it. Each call resolves once a run that started after it has finished. `work` failing
 * is swallowed (the caller asked for a best-effort refresh).
 */
export function coalesce(work: () => Promise<void>, delayMs: number): () => Promise<void> {
  let scheduled: Promise<void> | null = null;
  let running: Promise<void> = Promise.resolve();
  return () => {
    scheduled ??= (async () => {
      await running;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      // From here on a call schedules the next run: this one may already miss its change.
      scheduled = null;
      running = work().catch(() => undefined);
      await running;
    })();
    return scheduled;
  };
}
