import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { TASK_EVENTS_CHANNEL } from "../../db/channels.ts";
import type { Database } from "../../db/client.ts";
import { statementName } from "../../db/script.ts";
import { taskEvents } from "../../db/schema/index.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";
import { parseEventId } from "../../schemas/event-id.ts";
import { readPosition } from "./position.ts";

/** A task event as the feed reads it: the payload stays the JSON text it was stored as. */
export interface FeedEvent {
  id: bigint;
  userId: number;
  payload: string;
}

export interface FeedOptions {
  database: Database;
  logger: Logger;
  /** Safety-net read for notifications missed while the LISTEN connection was down. */
  catchUpMs?: number;
  /** Whether any stream listens on this instance; while none does, only the cursor moves. */
  listening: () => boolean;
  /** Called with each new event, in id order. */
  dispatch: (event: FeedEvent) => void;
  /**
   * Called when the log went back below the cursor, which only a restore of the database under
   * this instance does; the cursor is `head` now, and clients ahead of it must reload.
   */
  rewound?: (head: bigint) => void;
}

/** The later of two event ids. */
export const later = (a: bigint, b: bigint): bigint => (a > b ? a : b);

const PAGE = 500;
const REPLAY_PAGE = 200;

const PAGE_AFTER_TEXT = `select id, user_id, payload::text as payload from task_events
  where id > $1::bigint order by id limit ${PAGE}`;
const PAGE_AFTER = {
  name: statementName("overture_feed_page", PAGE_AFTER_TEXT),
  text: PAGE_AFTER_TEXT,
};

/**
 * The instance's one reader of `task_events`: a cursor, moved by pages of new rows. One LISTEN
 * per instance; a notification (coalesced: one read in flight, and one more if anything arrived
 * meanwhile) and a periodic catch-up read both read past the cursor and hand each row on.
 */
export function createEventFeed(options: FeedOptions) {
  const { database, logger, listening } = options;
  const db = database.db;
  // Ids are bigints throughout: they pass 2^53, where a number stops holding every integer.
  let cursor = 0n;
  // The highest id a read already running or queued is sure to see (it was committed before
  // that read's query): a notification up to it needs no read of its own.
  let covered = 0n;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let stopped = false;
  let unlisten: (() => Promise<void>) | undefined;
  let catchUp: NodeJS.Timeout | undefined;
  // Read through a function: it changes while a read awaits the database.
  const moreToRead = () => readAgain && !stopped;

  // The log's head, not its newest row: a position below a pruned id would be answered with a
  // reset when a client resumes from it (position.ts).
  const newest = async () => (await readPosition(database)).head;

  // Prepared once: the read runs after every commit that appends task events.
  const page = async (after: bigint): Promise<FeedEvent[]> => {
    const rows = await database.query<{ id: string; user_id: string; payload: string }>({
      ...PAGE_AFTER,
      params: [String(after)],
    });
    // bigint columns: text from both drivers' raw rows
    return rows.map((r) => ({ id: BigInt(r.id), userId: Number(r.user_id), payload: r.payload }));
  };

  async function readPages(): Promise<void> {
    for (;;) {
      if (!listening()) {
        // Nobody listening here: only move the cursor (unless a stream attached meanwhile).
        const top = await newest();
        if (listening()) continue;
        cursor = later(cursor, top);
        return;
      }
      const rows = await page(cursor);
      for (const row of rows) {
        cursor = row.id;
        options.dispatch(row);
      }
      if (rows.length < PAGE) return;
    }
  }

  /**
   * Reads new events; concurrent triggers coalesce into one read plus at most one follow-up.
   * `committedId`: an id known to be committed already (the read started or queued now sees it).
   */
  function readNew(committedId = 0n): Promise<void> {
    covered = later(covered, committedId);
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        await readPages().catch((error: unknown) => {
          logger.warn(
            { err: errorMessage(error) },
            "reading task events failed; the catch-up read retries",
          );
        });
      } while (moreToRead());
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  /**
   * The periodic read: new events and, when there were none, whether the log went back below the
   * cursor. The cursor is an id this database committed, and the head never falls below one
   * (deleted ids stay in it), unless the database was restored from an older backup: then no read
   * past the cursor would find what is appended from now on.
   */
  async function catchUpRound(): Promise<void> {
    const before = cursor;
    await readNew();
    if (cursor !== before || stopped) return;
    try {
      const { head } = await readPosition(database);
      // `before` was committed before this read began: a head below it is no race.
      if (head >= before || cursor !== before) return;
      cursor = head;
      covered = head;
      logger.warn(
        { from: String(before), to: String(head) },
        "task events went back (the database was restored from a backup?): clients reload",
      );
      options.rewound?.(head);
    } catch (error) {
      logger.warn({ err: errorMessage(error) }, "reading task events failed; the catch-up retries");
    }
  }

  return {
    /** The id of the last event read (new streams start after it). */
    get cursor() {
      return cursor;
    },

    /** Starts at the newest event, listens for more, and reads again every `catchUpMs`. */
    async start(): Promise<void> {
      stopped = false;
      cursor = await newest();
      unlisten = await database.listen(TASK_EVENTS_CHANNEL, (payload) => {
        if (payload === "") {
          void readNew();
          return;
        }
        const id = parseEventId(payload);
        if (id === undefined || id <= later(cursor, covered)) return; // seen, or a read sees it
        if (!listening() && !reading) {
          // Nobody listens here: the announced id is committed, so the cursor moves to it
          // without a read (an instance that only takes webhooks hears every commit).
          cursor = id;
          return;
        }
        void readNew(id);
      });
      catchUp = setInterval(() => void catchUpRound(), options.catchUpMs ?? 2_000);
      catchUp.unref();
    },

    readNew,
    catchUpRound,

    /** Moves the cursor to `id` when it is further: every event up to it is known committed. */
    advance(id: bigint): void {
      cursor = later(cursor, id);
    },

    /** One user's events after `afterId`, oldest first, a page at a time (a stream's replay). */
    replayPage: (userId: number, afterId: bigint) =>
      db
        .select({ id: taskEvents.id, payload: sql<string>`${taskEvents.payload}::text` })
        .from(taskEvents)
        .where(and(eq(taskEvents.userId, userId), gt(taskEvents.id, afterId)))
        .orderBy(asc(taskEvents.id))
        .limit(REPLAY_PAGE),

    /**
     * Like `replayPage`, but only each task's newest event after `afterId`: every event carries
     * the whole task row, so a client that keeps rows (the extension) needs no earlier one. A
     * popup opened after 50 tasks ran to the end gets 50 rows instead of every step of each.
     */
    latestPage: (userId: number, afterId: bigint) =>
      db
        .select({ id: taskEvents.id, payload: sql<string>`${taskEvents.payload}::text` })
        .from(taskEvents)
        .where(
          inArray(
            taskEvents.id,
            db
              .select({ id: sql<bigint>`max(${taskEvents.id})` })
              .from(taskEvents)
              .where(and(eq(taskEvents.userId, userId), gt(taskEvents.id, afterId)))
              .groupBy(taskEvents.taskId),
          ),
        )
        .orderBy(asc(taskEvents.id))
        .limit(REPLAY_PAGE),

    /** Where the log stands now: what a resuming client is checked against (position.ts). */
    position: () => readPosition(database),

    /** Rows per replay page: a shorter page is the last. */
    replayPageSize: REPLAY_PAGE,

    /** Stops listening and reading; resolves once a read in flight has finished. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(catchUp);
      catchUp = undefined;
      await unlisten?.().catch(() => undefined);
      unlisten = undefined;
      await reading;
    },
  };
}

export type EventFeed = ReturnType<typeof createEventFeed>;
