import type { Database } from "../../db/client.ts";
import { statementName, type Statement } from "../../db/script.ts";
import type { EventResetReason } from "../../schemas/task-states.ts";

/** Where the task_events log stands, as one statement saw it. */
export interface LogPosition {
  /**
   * The highest id this database has held: its newest event, or a newer one deleted since (a
   * purged task's). Every id a client got from this database is at most this.
   */
  head: bigint;
  /** The highest id retention deleted: a replay from below it would miss events. */
  prunedThrough: bigint;
}

// The marks are the one row the trigger of migration 0006 keeps in the deleting transaction, so
// this statement's snapshot sees the rows and the marks agree. max(id) reads the primary key's
// last entry.
const POSITION_TEXT = `select
  greatest((select coalesce(max(id), 0) from task_events),
           (select coalesce(max(deleted_through), 0) from task_event_marks))::text as head,
  (select coalesce(max(pruned_through), 0) from task_event_marks)::text as pruned_through`;
const POSITION: Statement = {
  name: statementName("overture_event_position", POSITION_TEXT),
  text: POSITION_TEXT,
  params: [],
};

export async function readPosition(database: Pick<Database, "query">): Promise<LogPosition> {
  const [row] = await database.query<{ head: string; pruned_through: string }>(POSITION);
  return { head: BigInt(row?.head ?? 0), prunedThrough: BigInt(row?.pruned_through ?? 0) };
}

/**
 * Why a replay after `cursor` cannot bring a client up to date, if it cannot.
 *
 * - `ahead_of_server`: the cursor is above every id this database has held, so the client's list
 *   came from another database, or from this one before a backup was restored. A replay would
 *   send nothing until the sequence passed the cursor, and the client would keep changes the
 *   database no longer has. Compared with `head`, not with the newest row: a purged task's events
 *   leave, but their ids were held (`deleted_through`), and a client holding one is not ahead.
 * - `older_than_retention`: retention deleted an event after the cursor. Known exactly from the
 *   highest id it deleted (`pruned_through`, kept by the trigger): ids come from a sequence with
 *   gaps (rolled-back transactions), so the oldest id kept says nothing of what was deleted. The
 *   mark is global, not per user: a client away that long reloads its list once, which is never
 *   wrong, where a per-user mark would cost a row per user in every retention batch.
 *
 * A new database with a cursor of 0 is neither.
 */
export function resetReason(cursor: bigint, position: LogPosition): EventResetReason | undefined {
  if (cursor > position.head) return "ahead_of_server";
  if (cursor < position.prunedThrough) return "older_than_retention";
  return undefined;
}
