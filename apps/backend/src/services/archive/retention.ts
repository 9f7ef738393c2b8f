import { inArray, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.ts";
import { archiveFiles, archivePeaks } from "../../db/schema/index.ts";
import { periodicRounds } from "../../lib/periodic.ts";
import { lockTasks } from "../tasks/store.ts";
import type { TaskRecord } from "../tasks/record.ts";
import type { ArchiveDeps } from "./deps.ts";
import { requeueQuotaRefused } from "./quota.ts";
import type { FileStore, PendingFile } from "./store.ts";

/**
 * Files expired per transaction (a task's original and its rendition are two); a round repeats
 * until a batch comes back short.
 */
const BATCH = 100;
/** Batches per round at most, so one round stays bounded. */
const MAX_BATCHES = 50;

/**
 * Removes archived results older than ARCHIVE_RETENTION_DAYS: files, chunks and peaks go, and
 * the task turns `archive.status = "expired"` (an event tells the user's clients). Every instance
 * runs it; `SKIP LOCKED` gives each batch to one of them.
 */
export function createArchiveRetention(
  record: TaskRecord,
  deps: ArchiveDeps,
  options: { files: FileStore; intervalMs?: number; batchSize?: number },
) {
  const { db, clock, logger, config } = deps;
  const batchSize = options.batchSize ?? BATCH;
  const retentionMs = config.archive.retentionMs;

  /**
   * Hides a batch's files and marks their tasks expired in one short transaction, then drops
   * the files' bytes a few chunks at a time (one DELETE of a long result holds PGlite too long).
   * Says whether the batch was full: it counts files, so fewer tasks than `batchSize` is no sign
   * that none is left.
   */
  async function expireBatch(cutoff: Date): Promise<{ tasks: number; full: boolean }> {
    let removed: PendingFile[] = [];
    const batch = await db.transaction(async (tx) => {
      const due = await queryRows<{ task_id: string }>(
        tx,
        sql`select task_id from archive_files where complete
              and created_at < ${cutoff.toISOString()}::timestamptz
            order by created_at limit ${batchSize} for update skip locked`,
      );
      const rows = await lockTasks(
        tx,
        due.map((d) => d.task_id),
      );
      const ids = [...rows.keys()];
      if (ids.length === 0) return { tasks: 0, full: false };
      removed = await tx
        .update(archiveFiles)
        .set({ complete: false })
        .where(inArray(archiveFiles.taskId, ids))
        .returning({ id: archiveFiles.id, storage: archiveFiles.storage, path: archiveFiles.path });
      await tx.delete(archivePeaks).where(inArray(archivePeaks.taskId, ids));
      const now = new Date(clock.now());
      // Another instance's batch may have expired a task of this one first: no second event.
      const before = [...rows.values()].filter((row) => row.archiveStatus !== "expired");
      const after = before.map((row) => ({
        ...row,
        archiveStatus: "expired" as const,
        updatedAt: now,
      }));
      await record.save(tx, after, "worker", before);
      await requeueQuotaRefused(
        tx,
        [...rows.values()].map((row) => row.userId),
        now,
      );
      return { tasks: ids.length, full: due.length === batchSize };
    });
    await options.files.discard(removed);
    return batch;
  }

  /**
   * Hidden files no archiver will finish: of tasks expired, failed or purged-to-be while a
   * crash interrupted their removal (a pending task's are removed when it is claimed again).
   */
  async function discardAbandoned(): Promise<number> {
    const abandoned = await queryRows<PendingFile>(
      db,
      sql`select f.id, f.storage, f.path from archive_files f join tasks t on t.id = f.task_id
          where not f.complete and t.archive_status is distinct from 'pending'`,
    );
    await options.files.discard(abandoned);
    return abandoned.length;
  }

  return periodicRounds({
    run: async () => {
      const abandoned = await discardAbandoned();
      if (abandoned > 0) logger.info({ files: abandoned }, "abandoned archive files removed");
      if (retentionMs === null) return 0;
      const cutoff = new Date(clock.now() - retentionMs);
      let total = 0;
      for (let n = 0; n < MAX_BATCHES; n += 1) {
        const batch = await expireBatch(cutoff);
        total += batch.tasks;
        if (!batch.full) break;
      }
      if (total > 0) logger.info({ tasks: total }, "archived results past retention removed");
      return total;
    },
    fallback: 0,
    intervalMs: options.intervalMs ?? 3_600_000,
    logger,
    what: "archive retention round",
  });
}

export type ArchiveRetention = ReturnType<typeof createArchiveRetention>;
