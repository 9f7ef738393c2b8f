import { inArray, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.ts";
import { archiveFiles, tasks } from "../../db/schema/index.ts";
import { periodicRounds } from "../../lib/periodic.ts";
import { requeueQuotaRefused } from "../archive/quota.ts";
import type { FileStore } from "../archive/store.ts";
import { UNDO_WINDOW_MS } from "./library.ts";
import type { RecordDeps } from "../tasks/record.ts";

/** Tasks purged per transaction; a round repeats until a batch comes back short. */
const BATCH = 100;
const MAX_BATCHES = 20;

/**
 * Removes tasks deleted longer ago than the undo window: the row and everything hanging from it
 * (its events by the trigger of migration 0005; peaks and share links by their foreign keys; the
 * archived files first, in small steps: `purgeBatch`). Every
 * instance runs it; `SKIP LOCKED` gives each batch to one of them.
 */
export function createTaskPurge(
  deps: Pick<RecordDeps, "db" | "clock" | "logger">,
  options: { files: FileStore; intervalMs?: number },
) {
  const { db, clock, logger } = deps;

  /**
   * Three short steps, never one long transaction (a long result's chunks in one DELETE hold
   * PGlite too long): the batch's files are hidden, their bytes dropped a few chunks at a time,
   * then the tasks deleted. A crash in between leaves hidden files the next round takes again.
   */
  async function purgeBatch(cutoff: Date): Promise<number> {
    const due = await db.transaction(async (tx) => {
      const rows = await queryRows<{ id: string; user_id: string }>(
        tx,
        sql`select id, user_id from tasks where deleted_at is not null
            and deleted_at <= ${cutoff.toISOString()}::timestamptz
            order by deleted_at limit ${BATCH} for update skip locked`,
      );
      if (rows.length === 0) return { rows, files: [] };
      const files = await tx
        .update(archiveFiles)
        .set({ complete: false })
        .where(
          inArray(
            archiveFiles.taskId,
            rows.map((row) => row.id),
          ),
        )
        .returning({ id: archiveFiles.id, storage: archiveFiles.storage, path: archiveFiles.path });
      return { rows, files };
    });
    if (due.rows.length === 0) return 0;
    await options.files.discard(due.files);
    return db.transaction(async (tx) => {
      const gone = await tx
        .delete(tasks)
        .where(
          inArray(
            tasks.id,
            due.rows.map((row) => row.id),
          ),
        )
        .returning({ id: tasks.id });
      if (due.files.length > 0)
        await requeueQuotaRefused(
          tx,
          due.rows.map((row) => Number(row.user_id)),
          new Date(clock.now()),
        );
      return gone.length;
    });
  }

  return periodicRounds({
    run: async () => {
      const cutoff = new Date(clock.now() - UNDO_WINDOW_MS);
      let total = 0;
      for (let n = 0; n < MAX_BATCHES; n += 1) {
        const count = await purgeBatch(cutoff);
        total += count;
        if (count < BATCH) break;
      }
      if (total > 0) logger.info({ tasks: total }, "deleted tasks purged");
      return total;
    },
    fallback: 0,
    intervalMs: options.intervalMs ?? UNDO_WINDOW_MS / 2,
    logger,
    what: "deleted-task purge",
  });
}

export type TaskPurge = ReturnType<typeof createTaskPurge>;
