import { inArray, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.ts";
import { archiveFiles, tasks, type ArchiveFileRow } from "../../db/schema/index.ts";
import { periodicRounds } from "../../lib/periodic.ts";
import { requeueQuotaRefused } from "../archive/quota.ts";
import type { FileStore } from "../archive/store.ts";
import { UNDO_WINDOW_MS } from "./library.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";

/** Tasks purged per transaction; a round repeats until a batch comes back short. */
const BATCH = 100;
const MAX_BATCHES = 20;

/**
 * Removes tasks deleted longer ago than the undo window: the row and everything hanging from it
 * (its events by the trigger of migration 0005; archived files, chunks, peaks and share links by
 * their foreign keys), then the folder store's files once the transaction committed. Every
 * instance runs it; `SKIP LOCKED` gives each batch to one of them.
 */
export function createTaskPurge(
  runtime: TaskRuntime,
  options: { files: FileStore; intervalMs?: number },
) {
  const { db, clock, logger } = runtime.deps;

  async function purgeBatch(cutoff: Date): Promise<number> {
    let removed: Pick<ArchiveFileRow, "storage" | "path">[] = [];
    const count = await db.transaction(async (tx) => {
      const due = await queryRows<{ id: string; user_id: string }>(
        tx,
        sql`select id, user_id from tasks where deleted_at is not null
            and deleted_at <= ${cutoff.toISOString()}::timestamptz
            order by deleted_at limit ${BATCH} for update skip locked`,
      );
      const ids = due.map((d) => d.id);
      if (ids.length === 0) return 0;
      removed = await tx
        .select({ storage: archiveFiles.storage, path: archiveFiles.path })
        .from(archiveFiles)
        .where(inArray(archiveFiles.taskId, ids));
      await tx.delete(tasks).where(inArray(tasks.id, ids));
      if (removed.length > 0)
        await requeueQuotaRefused(
          tx,
          due.map((d) => Number(d.user_id)),
          new Date(clock.now()),
        );
      return ids.length;
    });
    await options.files.removeFiles(removed);
    return count;
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
