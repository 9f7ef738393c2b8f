import type { Logger } from "./logger.ts";

/** How often, at most, an outage that goes on is logged again. */
const WARN_EVERY_MS = 10_000;
/** How often the database is asked whether it answers again, once an outage was seen. */
const PROBE_EVERY_MS = 1_000;

export interface OutageLog {
  /** A request or a round found the database unavailable (`fields`: requestId, err, worker…). */
  report(fields: Record<string, unknown>): void;
  /** Ends the probe (the backend is stopping). */
  stop(): void;
}

/**
 * The log of a database outage: one `database unavailable` warning when it starts, then at most
 * one `database still unavailable` every {@link WARN_EVERY_MS} (with how many failures it
 * stands for) however many requests fail meanwhile, and one `database reachable again` once a
 * probe of the database answers. Every failed request still has its own access-log line (503).
 */
export function createOutageLog(deps: {
  logger: Logger;
  /** Resolves when the database answers (`Database.ping`). */
  ping: () => Promise<void>;
  now?: () => number;
  warnEveryMs?: number;
  probeEveryMs?: number;
}): OutageLog {
  const now = deps.now ?? Date.now;
  const warnEveryMs = deps.warnEveryMs ?? WARN_EVERY_MS;
  const probeEveryMs = deps.probeEveryMs ?? PROBE_EVERY_MS;
  let outage: { since: number; failures: number; unlogged: number; warnedAt: number } | undefined;
  let probe: NodeJS.Timeout | undefined;
  let stopped = false;

  const scheduleProbe = () => {
    if (stopped) return;
    probe = setTimeout(() => {
      // A ping that hangs (a connection black-holed) counts as a failure, and the next is sent.
      const timeout = new Promise<never>((_, reject) => {
        setTimeout(() => {
          reject(new Error("no answer"));
        }, probeEveryMs * 5).unref();
      });
      Promise.race([deps.ping(), timeout]).then(
        () => {
          if (!outage || stopped) return;
          deps.logger.info(
            { outageMs: now() - outage.since, failures: outage.failures },
            "database reachable again",
          );
          outage = undefined;
        },
        () => {
          scheduleProbe();
        },
      );
    }, probeEveryMs);
    probe.unref();
  };

  return {
    report(fields) {
      const at = now();
      if (!outage) {
        outage = { since: at, failures: 1, unlogged: 0, warnedAt: at };
        deps.logger.warn(fields, "database unavailable");
        scheduleProbe();
        return;
      }
      outage.failures += 1;
      if (at - outage.warnedAt < warnEveryMs) {
        outage.unlogged += 1;
        return;
      }
      deps.logger.warn(
        { ...fields, sinceMs: at - outage.since, failuresSinceLastLine: outage.unlogged + 1 },
        "database still unavailable",
      );
      outage.warnedAt = at;
      outage.unlogged = 0;
    },
    stop() {
      stopped = true;
      clearTimeout(probe);
    },
  };
}
