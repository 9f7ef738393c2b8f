import type { Database } from "../../db/client.ts";
import { statementName } from "../../db/script.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { isDatabaseUnavailable } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { OutageLog } from "../../lib/outage-log.ts";
import { readPosition } from "./position.ts";

/** A task event as the feed reads it: the payload stays the JSON text it was stored as. */
export interface FeedEvent {
  id: bigint;
  userId: number;
  payload: string;
}

export interface ReaderOptions {
  database: Database;
  logger: Logger;
  /** Whether any stream listens on this instance; while none does, only the cursor moves. */
  listening: () => boolean;
  /** Called with each new event, in id order. */
  dispatch: (event: FeedEvent) => void;
  /** Where a read that finds the database unavailable goes: the outage's one log, not a line a read. */
  outages?: Pick<OutageLog, "report">;
}

/** Logs a failed read: a database outage to the outage log when there is one, else a warning. */
export function readFailed(options: ReaderOptions, error: unknown, message: string): void {
  if (options.outages && isDatabaseUnavailable(error))
    options.outages.report({ worker: "live events feed", err: errorMessage(error) });
  else options.logger.warn({ err: errorMessage(error) }, message);
}

/** The later of two event ids. */
export const later = (a: bigint, b: bigint): bigint => (a > b ? a : b);

const PAGE = 500;
const PAGE_AFTER_TEXT = `select id, user_id, payload::text as payload from task_events
  where id > $1::bigint order by id limit ${PAGE}`;
const PAGE_AFTER = {
  name: statementName("overture_feed_page", PAGE_AFTER_TEXT),
  text: PAGE_AFTER_TEXT,
};

/** Every user's events after `after`, a page; prepared once: it runs after every append. */
async function pageAfter(database: Database, after: bigint): Promise<FeedEvent[]> {
  const rows = await database.query<{ id: string; user_id: string; payload: string }>({
    ...PAGE_AFTER,
    params: [String(after)],
  });
  // bigint columns: text from both drivers' raw rows
  return rows.map((r) => ({ id: BigInt(r.id), userId: Number(r.user_id), payload: r.payload }));
}

/**
 * The log's head, not its newest row: a position below a pruned id would be answered with a
 * reset when a client resumes from it (position.ts).
 */
async function logHead(database: ReaderOptions["database"]): Promise<bigint> {
  return (await readPosition(database)).head;
}

/**
 * The feed's cursor over `task_events` and the reads that move it: pages of rows past it, each
 * handed on. Concurrent triggers (notifications, commits here, the catch-up) coalesce into one
 * read in flight plus at most one more.
 */
export function createFeedReader(options: ReaderOptions) {
  const { database, listening } = options;
  // Ids are bigints throughout: they pass 2^53, where a number stops holding every integer.
  let cursor = 0n;
  // The highest id a read already running or queued is sure to see (it was committed before
  // that read's query): a notification up to it needs no read of its own.
  let covered = 0n;
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let stopped = false;
  // Read through a function: it changes while a read awaits the database.
  const moreToRead = () => readAgain && !stopped;

  const newest = () => logHead(database);

  async function readPages(): Promise<void> {
    for (;;) {
      if (!listening()) {
        // Nobody listening here: only move the cursor (unless a stream attached meanwhile).
        const top = await newest();
        if (listening()) continue;
        cursor = later(cursor, top);
        return;
      }
      const rows = await pageAfter(database, cursor);
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
          readFailed(options, error, "reading task events failed; the catch-up read retries");
        });
      } while (moreToRead());
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  /** A NOTIFY said events up to `id` are committed. */
  function announced(id: bigint): void {
    if (id <= later(cursor, covered)) return; // seen, or a read on its way sees it
    if (!listening() && !reading) {
      // Nobody listens here: the announced id is committed, so the cursor moves to it without a
      // read (an instance that only takes webhooks hears every commit).
      cursor = id;
      return;
    }
    void readNew(id);
  }

  return {
    get cursor() {
      return cursor;
    },
    /** Starts at the log's head. */
    async startAtHead(): Promise<void> {
      stopped = false;
      cursor = await newest();
    },
    readNew,
    announced,
    /** Moves the cursor to `id` when it is further: every event up to it is known committed. */
    advance: (id: bigint): void => {
      cursor = later(cursor, id);
    },
    /** Moves the cursor back to `head`: the log went back (a restored database). */
    rewind(head: bigint): void {
      cursor = head;
      covered = head;
    },
    /** No follow-up read from now on (stopping). */
    halt(): void {
      stopped = true;
    },
    get stopped() {
      return stopped;
    },
    /** Resolves once the read in flight, if any, has finished. */
    settled: () => reading,
  };
}
