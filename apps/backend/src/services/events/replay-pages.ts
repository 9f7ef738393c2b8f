import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { taskEvents } from "../../db/schema/index.ts";

/** Rows per replay page: a shorter page is the last. */
export const REPLAY_PAGE = 200;

/** One user's events after `afterId`, oldest first, a page at a time (a stream's replay). */
export const replayPage = (db: AppDatabase, userId: number, afterId: bigint) =>
  db
    .select({ id: taskEvents.id, payload: sql<string>`${taskEvents.payload}::text` })
    .from(taskEvents)
    .where(and(eq(taskEvents.userId, userId), gt(taskEvents.id, afterId)))
    .orderBy(asc(taskEvents.id))
    .limit(REPLAY_PAGE);

/**
 * Like {@link replayPage}, but only each task's newest event after `afterId`: every event carries
 * the whole task row, so a client that keeps rows (the extension) needs no earlier one. A popup
 * opened after 50 tasks ran to the end gets 50 rows instead of every step of each.
 */
export const latestPage = (db: AppDatabase, userId: number, afterId: bigint) =>
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
    .limit(REPLAY_PAGE);
