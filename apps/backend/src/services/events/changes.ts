import type { EventResetReason } from "../../schemas/task-states.ts";
import type { EventFeed } from "./feed.ts";
import { resetReason } from "./position.ts";

/** What changed for a user after an event id (`GET /api/events/changes`). */
export interface Changes {
  /** Each changed task's newest event, oldest first: its id and its stored task JSON. */
  rows: { id: bigint; payload: string }[];
  /** Where the client resumes from. */
  lastEventId: bigint;
  /** Whether a next page may hold more. */
  more: boolean;
  /** Set when no list of changes can bring the client up to date (position.ts): reload. */
  reset?: EventResetReason;
}

/**
 * The replay of `?replay=latest` as one answer: each task changed after `after`, as its newest
 * event has it, a page at most; or, when `after` cannot be resumed from, nothing but the reset
 * and the newest id. The page is read first: the marks, read after it, commit with retention's
 * deletes, so marks at or below `after` prove the page missed nothing.
 */
export async function readChanges(
  feed: EventFeed,
  userId: number,
  after: bigint,
): Promise<Changes> {
  const rows = await feed.latestPage(userId, after);
  const position = await feed.position();
  const reset = resetReason(after, position);
  if (reset !== undefined) return { rows: [], lastEventId: position.head, more: false, reset };
  return {
    rows,
    lastEventId: rows.at(-1)?.id ?? after,
    more: rows.length === feed.replayPageSize,
  };
}
