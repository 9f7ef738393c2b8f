import { TASK_EVENTS_CHANNEL } from "../../db/channels.ts";
import { parseEventId } from "../../schemas/event-id.ts";
import { createFeedReader, readFailed, type ReaderOptions } from "./feed-reader.ts";
import { readPosition } from "./position.ts";
import { latestPage, REPLAY_PAGE, replayPage } from "./replay-pages.ts";

export type { FeedEvent } from "./feed-reader.ts";
export { later } from "./feed-reader.ts";

export interface FeedOptions extends ReaderOptions {
  /** Safety-net read for notifications missed while the LISTEN connection was down. */
  catchUpMs?: number;
  /**
   * Called when the log went back below the cursor, which only a restore of the database under
   * this instance does; the cursor is `head` now, and clients ahead of it must reload.
   */
  rewound?: (head: bigint) => void;
}

/**
 * The instance's one reader of `task_events` (feed-reader.ts: a cursor, moved by pages of new
 * rows), kept reading: one LISTEN per instance, whose notifications start reads, and a periodic
 * catch-up read; plus the replay queries of streams resuming with Last-Event-ID.
 */
export function createEventFeed(options: FeedOptions) {
  const { database, logger } = options;
  const db = database.db;
  const reader = createFeedReader(options);
  let unlisten: (() => Promise<void>) | undefined;
  let catchUp: NodeJS.Timeout | undefined;

  /**
   * The periodic read: new events and, when there were none, whether the log went back below the
   * cursor. The cursor is an id this database committed, and the head never falls below one
   * (deleted ids stay in it), unless the database was restored from an older backup: then no read
   * past the cursor would find what is appended from now on.
   */
  async function catchUpRound(): Promise<void> {
    const before = reader.cursor;
    await reader.readNew();
    if (reader.cursor !== before || reader.stopped) return;
    try {
      const { head } = await readPosition(database);
      // `before` was committed before this read began: a head below it is no race.
      if (head >= before || reader.cursor !== before) return;
      reader.rewind(head);
      logger.warn(
        { from: String(before), to: String(head) },
        "task events went back (the database was restored from a backup?): clients reload",
      );
      options.rewound?.(head);
    } catch (error) {
      readFailed(options, error, "reading task events failed; the catch-up retries");
    }
  }

  return {
    /** The id of the last event read (new streams start after it). */
    get cursor() {
      return reader.cursor;
    },

    /** Starts at the log's head, listens for more, and reads again every `catchUpMs`. */
    async start(): Promise<void> {
      await reader.startAtHead();
      unlisten = await database.listen(TASK_EVENTS_CHANNEL, (payload) => {
        if (payload === "") {
          void reader.readNew();
          return;
        }
        const id = parseEventId(payload);
        if (id !== undefined) reader.announced(id);
      });
      catchUp = setInterval(() => void catchUpRound(), options.catchUpMs ?? 2_000);
      catchUp.unref();
    },

    readNew: reader.readNew,
    catchUpRound,
    advance: reader.advance,

    /** One user's events after `afterId`, oldest first, a page at a time (a stream's replay). */
    replayPage: (userId: number, afterId: bigint) => replayPage(db, userId, afterId),
    /** Each task's newest event only ({@link latestPage}). */
    latestPage: (userId: number, afterId: bigint) => latestPage(db, userId, afterId),
    /** Rows per replay page: a shorter page is the last. */
    replayPageSize: REPLAY_PAGE,

    /** Where the log stands now: what a resuming client is checked against (position.ts). */
    position: () => readPosition(database),

    /** Stops listening and reading; resolves once a read in flight has finished. */
    async stop(): Promise<void> {
      reader.halt();
      clearInterval(catchUp);
      catchUp = undefined;
      await unlisten?.().catch(() => undefined);
      unlisten = undefined;
      await reader.settled();
    },
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;
