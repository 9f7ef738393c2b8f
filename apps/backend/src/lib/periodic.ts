import { errorMessage } from "./error-summary.ts";
import type { Logger } from "./logger.ts";

/**
 * A background worker's rounds: one every `intervalMs` once started, never two at once (a call
 * while a round runs joins it), a failed round logged and counted as `fallback`. `stop` ends the
 * timer and waits for the round in progress. The queue, the reconciler and the archiver use it.
 */
export function periodicRounds<T>(options: {
  run: () => Promise<T>;
  /** What a failed round resolves to. */
  fallback: T;
  intervalMs: number;
  logger: Logger;
  /** For the log line: "<what> failed". */
  what: string;
}) {
  let round: Promise<T> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const runOnce = (): Promise<T> => {
    round ??= options
      .run()
      .catch((error: unknown) => {
        options.logger.warn({ err: errorMessage(error) }, `${options.what} failed`);
        return options.fallback;
      })
      .finally(() => {
        round = undefined;
      });
    return round;
  };

  return {
    runOnce,
    start: (): Promise<void> => {
      timer ??= setInterval(() => void runOnce(), options.intervalMs);
      timer.unref();
      return Promise.resolve();
    },
    stop: async (): Promise<void> => {
      clearInterval(timer);
      timer = undefined;
      await round;
    },
  };
}
