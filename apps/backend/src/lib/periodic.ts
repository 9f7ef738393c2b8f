import { errorMessage } from "./error-summary.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import type { Logger } from "./logger.ts";
import type { OutageLog } from "./outage-log.ts";

/** While rounds keep failing, a line at most this often (a round every second would flood). */
const REPEAT_FAILURE_LOG_MS = 60_000;

/**
 * A background worker's rounds: one every `intervalMs` once started, never two at once (a call
 * while a round runs joins it), a failed round logged and counted as `fallback`. `stop` ends the
 * timer and waits for the round in progress. The queue, the reconciler and the archiver use it.
 *
 * A run of failures is logged once, then at most once a minute with how many failed; a round
 * that finds the database unavailable goes to `outages` when given (one outage log for the
 * whole process), and the run ends with one "<what> works again".
 */
export function periodicRounds<T>(options: {
  run: () => Promise<T>;
  /** What a failed round resolves to. */
  fallback: T;
  intervalMs: number;
  logger: Logger;
  /** For the log line: "<what> failed". */
  what: string;
  outages?: Pick<OutageLog, "report">;
}) {
  let round: Promise<T> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failing: { since: number; failures: number; loggedAt: number; logged: boolean } | undefined;

  const failed = (error: unknown): T => {
    const now = Date.now();
    const outage = options.outages !== undefined && isDatabaseUnavailable(error);
    if (outage) options.outages?.report({ worker: options.what, err: errorMessage(error) });
    else if (!failing?.logged || now - failing.loggedAt >= REPEAT_FAILURE_LOG_MS) {
      options.logger.warn(
        {
          err: errorMessage(error),
          ...(failing ? { failures: failing.failures + 1, sinceMs: now - failing.since } : {}),
        },
        `${options.what} failed`,
      );
      failing = {
        since: failing?.since ?? now,
        failures: failing?.failures ?? 0,
        loggedAt: now,
        logged: true,
      };
    }
    failing ??= { since: now, failures: 0, loggedAt: now, logged: false };
    failing.failures += 1;
    return options.fallback;
  };

  const runOnce = (): Promise<T> => {
    round ??= options
      .run()
      .then((result) => {
        // The outage log says when the database is back; other failures end here.
        if (failing?.logged)
          options.logger.info({ failures: failing.failures }, `${options.what} works again`);
        failing = undefined;
        return result;
      }, failed)
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
