import { sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { TaskRecord } from "../tasks/record.ts";
import type { ArchiveDeps } from "./deps.ts";
import { ArchiveError, RefusedUrlError } from "./download.ts";

/** Longer than a download may take (2 min) plus analysis and storing: one claim, one fetch. */
export const LEASE_MS = 10 * 60_000;
/** When a result waits for a scratch folder, it is tried again this much later. */
const SCRATCH_RETRY_MS = 60_000;

export interface Claimed {
  id: string;
  user_id: string;
  file_url: string;
}

/**
 * The archiver's hold on its tasks: the claim (`FOR UPDATE SKIP LOCKED` and a lease, like the
 * reconciler, so one instance fetches each result once) and each way it ends short of archived:
 * released (a shutdown), postponed (no scratch folder), failed (retried later, or for good).
 */
export function createArchiveLeases(record: TaskRecord, deps: ArchiveDeps, maxAttempts: number) {
  const { db, clock, logger } = deps;

  /** One task at a time: its lease then covers only its own download, however slow the others. */
  async function claim(): Promise<Claimed | undefined> {
    const now = new Date(clock.now()).toISOString();
    const lease = new Date(clock.now() + LEASE_MS).toISOString();
    const [task] = await queryRows<Claimed>(
      db,
      sql`
      update tasks set archive_next_at = ${lease}::timestamptz
      where id in (
        select id from tasks where archive_status = 'pending' and archive_next_at <= ${now}::timestamptz
          and deleted_at is null -- a deleted track is purged, not archived (restored: archived then)
        order by archive_next_at limit 1 for update skip locked)
      returning id, user_id, file_url`,
    );
    return task;
  }

  /**
   * Stopped mid-way: the lease goes at once (no attempt spent), so another instance, or this one
   * once restarted, takes the result now rather than in ten minutes.
   */
  async function releaseLease(task: Claimed): Promise<void> {
    const now = new Date(clock.now()).toISOString();
    await db.execute(
      sql`update tasks set archive_next_at = ${now}::timestamptz
          where id = ${task.id} and archive_status = 'pending'`,
    );
    logger.info({ taskId: task.id }, "archiving stopped by shutdown; the result is released");
  }

  /**
   * The machine's fault, not the result's (a read-only /tmp under systemd's ProtectSystem, a full
   * disk): said loudly, and the task waits a minute without losing an attempt, instead of keeping
   * its ten-minute lease or failing for good.
   */
  async function noScratch(task: Claimed, scratch: string, error: unknown): Promise<void> {
    logger.error(
      { taskId: task.id, dir: scratch, err: errorMessage(error) },
      "archiving waits: no scratch folder could be made (check TMPDIR, or ARCHIVE_DIR)",
    );
    const retryAt = new Date(clock.now() + SCRATCH_RETRY_MS).toISOString();
    await db.execute(
      sql`update tasks set archive_next_at = ${retryAt}::timestamptz
          where id = ${task.id} and archive_status = 'pending'`,
    );
  }

  async function failed(task: Claimed, error: unknown): Promise<void> {
    const code = error instanceof ArchiveError ? error.code : "download_failed";
    // Retrying cannot change these answers.
    const final = code !== "download_failed";
    // A refusal is worth a warning: the platform (or a leaked webhook secret) named a foreign host.
    logger[error instanceof RefusedUrlError ? "warn" : "info"](
      { taskId: task.id, err: errorMessage(error) },
      "archiving a result failed",
    );
    await record.update(task.id, "worker", (row, now) => {
      if (row.archiveStatus !== "pending") return undefined;
      const attempts = row.archiveAttempts + 1;
      const expired = row.fileExpiresAt !== null && row.fileExpiresAt.getTime() <= now.getTime();
      if (final || attempts >= maxAttempts || expired) {
        return {
          ...row,
          archiveStatus: "failed",
          archiveError: code,
          archiveAttempts: attempts,
          archiveNextAt: null,
          updatedAt: now,
        };
      }
      return {
        ...row,
        archiveAttempts: attempts,
        archiveNextAt: new Date(now.getTime() + 30_000 * 2 ** attempts),
      };
    });
  }

  return { claim, releaseLease, noScratch, failed };
}
