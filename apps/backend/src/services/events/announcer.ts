import { TASK_EVENTS_CHANNEL } from "../../db/channels.ts";
import type { Database } from "../../db/client.ts";
import { statementName } from "../../db/script.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";

const NOTIFY_TEXT = "select pg_notify($1::text, $2::text)";
const NOTIFY_NAME = statementName("overture_announce", NOTIFY_TEXT);

/**
 * Announces committed task events outside the transactions that appended them: after commit, from
 * the pool (not the batch's connection), one NOTIFY at a time (plus an optional `delayMs` before
 * each) carrying the highest id seen.
 * A NOTIFY inside a transaction takes Postgres' commit-time notify lock, so concurrent batches
 * committed one after another; here a batch commits without it. Readers only need "something
 * up to id N is committed" (services/events/feed.ts reads past its cursor), so coalescing loses
 * nothing; a NOTIFY that fails is covered by the feed's periodic catch-up read.
 */
export function createAnnouncer(options: {
  /** Sends the NOTIFY, prepared once per connection (up to one per batch). */
  database: Pick<Database, "query">;
  logger: Logger;
  delayMs?: number;
}) {
  const delayMs = options.delayMs ?? 0;
  let pending = 0n;
  let timer: { cancel(): void } | undefined;
  let sending: Promise<void> | undefined;

  async function send(): Promise<void> {
    timer = undefined;
    const id = pending;
    pending = 0n;
    try {
      await options.database.query({
        name: NOTIFY_NAME,
        text: NOTIFY_TEXT,
        params: [TASK_EVENTS_CHANNEL, String(id)],
      });
    } catch (error) {
      options.logger.warn(
        { err: errorMessage(error) },
        "announcing task events failed; readers catch up on their own",
      );
    }
  }

  function schedule(): void {
    if (timer || sending || pending === 0n) return;
    const fire = () => {
      sending = send().finally(() => {
        sending = undefined;
        schedule(); // ids that arrived while sending
      });
    };
    // By default right after the current turn of the event loop (commits completing in it share
    // it; setTimeout(0) would wait at least 1 ms more); one NOTIFY in flight at a time, so the
    // ones that come while it is sent coalesce into the next.
    if (delayMs > 0) {
      const handle = setTimeout(fire, delayMs);
      timer = {
        cancel: () => {
          clearTimeout(handle);
        },
      };
    } else {
      const handle = setImmediate(fire);
      timer = {
        cancel: () => {
          clearImmediate(handle);
        },
      };
    }
  }

  return {
    /** Task events up to `lastId` are committed. */
    announce(lastId: bigint | undefined): void {
      if (lastId === undefined) return;
      if (lastId > pending) pending = lastId;
      schedule();
    },
    /** Sends what is pending now (shutdown). */
    async flush(): Promise<void> {
      await sending;
      if (pending === 0n) return;
      timer?.cancel();
      timer = undefined;
      await send();
    },
  };
}

export type Announcer = ReturnType<typeof createAnnouncer>;
