import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Timers } from "../../lib/timers.ts";
import { RENEW_MS } from "./leases.ts";

/**
 * Renews a claimed result's lease every {@link RENEW_MS} while its archiver works, so the lease can
 * be short and a dead archiver's result is taken over soon. One renewal at a time: the next is
 * armed when the last has answered, so a slow database never stacks them. A renewal that fails
 * (the database away) is tried again at the next beat; one that finds the claim gone calls
 * `lost`, once, and the beats end.
 */
export function startHeartbeat(options: {
  /** Extends the lease; false when the row no longer holds the claim. */
  renew: () => Promise<boolean>;
  lost: () => void;
  timers: Timers;
  logger: Logger;
  taskId: string;
}) {
  const { renew, timers, logger, taskId } = options;
  let handle: unknown;
  let beating: Promise<void> = Promise.resolve();
  let ended = false;
  let lost = false;

  const arm = () => {
    if (ended) return;
    handle = timers.set(() => {
      beating = beat();
    }, RENEW_MS);
  };

  async function beat(): Promise<void> {
    try {
      if (!(await renew())) {
        lost = true;
        options.lost();
        return;
      }
    } catch (error) {
      logger.warn({ taskId, err: errorMessage(error) }, "renewing an archive lease failed");
    }
    arm();
  }

  arm();
  return {
    /** Whether a renewal found the claim gone. */
    get lost(): boolean {
      return lost;
    },
    /** No more renewals: waits for one in flight, so nothing extends the lease after this. */
    async end(): Promise<void> {
      ended = true;
      timers.clear(handle);
      await beating;
    },
  };
}
