import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Executor, queryRows } from "../../db/rows.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { TaskRecord } from "../tasks/record.ts";
import type { ArchiveDeps } from "./deps.ts";
import { ArchiveError, RefusedUrlError } from "./download.ts";

/**
 * How long a claim holds without renewal: what a result waits after its archiver died (a SIGKILL).
 * The heartbeat renews it every {@link RENEW_MS}, so three renewals in a row may be late or fail
 * (a busy event loop, a database failover) before another instance takes the result over.
 */
export const LEASE_MS = 60_000;
/** Four renewals a lease. */
export const RENEW_MS = LEASE_MS / 4;
/** When a result waits for a scratch folder, it is tried again this much later. */
const SCRATCH_RETRY_MS = 60_000;

export interface Claimed {
  id: string;
  user_id: string;
  file_url: string;
  /** This claim's `archive_claim`: each step that writes to the task checks the row still holds it. */
  claim: string;
}

/** The task's row no longer holds this claim: the lease ran out and another instance took it. */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
  constructor(taskId: string) {
    super(`the archive lease of task ${taskId} was lost`);
  }
}

/** The row still holds `task`'s claim, and the result still waits for it. */
const holds = (task: Claimed) =>
  sql`id = ${task.id} and archive_claim = ${task.claim}::uuid and archive_status = 'pending'`;

/**
 * Throws {@link LeaseLostError} unless the task's row holds `task`'s claim; in a transaction, also
 * locks the row (shared) until it ends, so another instance cannot take the result meanwhile.
 */
export async function assertClaim(tx: Executor, task: Claimed): Promise<void> {
  const rows = await queryRows(tx, sql`select 1 from tasks where ${holds(task)} for share`);
  if (rows.length === 0) throw new LeaseLostError(task.id);
}

/**
 * The archiver's hold on its tasks: the claim (`FOR UPDATE SKIP LOCKED` and a lease, like the
 * reconciler, so one instance fetches each result once), its renewal (heartbeat.ts), and each way
 * it ends short of archived: released (a shutdown), postponed (no scratch folder), failed (retried
 * later, or for good). Each checks the row still holds the claim: one that lost it writes nothing.
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
      update tasks set archive_next_at = ${lease}::timestamptz, archive_claim = ${randomUUID()}::uuid
      where id in (
        select id from tasks where archive_status = 'pending' and archive_next_at <= ${now}::timestamptz
          and deleted_at is null -- a deleted track is purged, not archived (restored: archived then)
        order by archive_next_at limit 1 for update skip locked)
      returning id, user_id, file_url, archive_claim as claim`,
    );
    return task;
  }

  /**
   * Extends the lease by {@link LEASE_MS} from now; false when the row no longer holds the claim
   * (taken over after a stall, archived meanwhile, or deleted: no use archiving it any more).
   */
  async function renew(task: Claimed): Promise<boolean> {
    const lease = new Date(clock.now() + LEASE_MS).toISOString();
    const rows = await queryRows(
      db,
      sql`update tasks set archive_next_at = ${lease}::timestamptz
          where ${holds(task)} and deleted_at is null returning 1`,
    );
    return rows.length > 0;
  }

  /**
   * Stopped mid-way: the lease goes at once (no attempt spent), so another instance, or this one
   * once restarted, takes the result now rather than when the lease runs out.
   */
  async function releaseLease(task: Claimed): Promise<void> {
    const now = new Date(clock.now()).toISOString();
    await db.execute(
      sql`update tasks set archive_next_at = ${now}::timestamptz where ${holds(task)}`,
    );
    logger.info({ taskId: task.id }, "archiving stopped by shutdown; the result is released");
  }

  /**
   * The machine's fault, not the result's (a read-only /tmp under systemd's ProtectSystem, a full
   * disk): said loudly, and the task waits a minute without losing an attempt, instead of failing
   * for good.
   */
  async function noScratch(task: Claimed, scratch: string, error: unknown): Promise<void> {
    logger.error(
      { taskId: task.id, dir: scratch, err: errorMessage(error) },
      "archiving waits: no scratch folder could be made (check TMPDIR, or ARCHIVE_DIR)",
    );
    const retryAt = new Date(clock.now() + SCRATCH_RETRY_MS).toISOString();
    await db.execute(
      sql`update tasks set archive_next_at = ${retryAt}::timestamptz where ${holds(task)}`,
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
      // Another instance's claim now (this one's lease ran out): its attempt, not this one's.
      if (row.archiveStatus !== "pending" || row.archiveClaim !== task.claim) return undefined;
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

  return { claim, renew, releaseLease, noScratch, failed };
}
