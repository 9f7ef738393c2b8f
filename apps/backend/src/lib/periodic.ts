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

/**
 * A maintenance worker (re-seal, retention): a round at start that does not hold start-up up, then
 * one every `intervalMs`. `run` receives `stopped`, to check between batches so a stop does not
 * wait for a long round; `runNow` is one round whose failure is thrown (the CLI's commands).
 */
export function maintenanceRounds<T>(options: {
  run: (stopped: () => boolean) => Promise<T>;
  fallback: T;
  intervalMs: number;
  logger: Logger;
  what: string;
}) {
  let stopping = false;
  // A call, so a check after an await is not narrowed away: stop() flips it meanwhile.
  const stopped = () => stopping;
  const run = () => options.run(stopped);
  const rounds = periodicRounds({ ...options, run });
  return {
    runOnce: rounds.runOnce,
    runNow: run,
    start: (): Promise<void> => {
      stopping = false;
      void rounds.runOnce();
      return rounds.start();
    },
    stop: (): Promise<void> => {
      stopping = true;
      return rounds.stop();
    },
  };
}
