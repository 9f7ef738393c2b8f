import { inArray, sql } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import type { Executor } from "../../db/rows.ts";
import { tasks } from "../../db/schema/index.ts";
import type { TaskRow } from "../../db/schema/index.ts";

/** Locks task rows `FOR UPDATE` in id order (a fixed order: concurrent batches cannot deadlock). */
export async function lockTasks(
  tx: Transaction,
  ids: readonly string[],
): Promise<Map<string, TaskRow>> {
  const unique = [...new Set(ids)].sort();
  if (unique.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(tasks)
    .where(inArray(tasks.id, unique))
    .orderBy(tasks.id)
    .for("update");
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Writes the mutable columns of whole task rows (already locked and merged in memory) in one
 * statement, whatever the number of rows: `UPDATE … FROM json_to_recordset(…)`. JSON carries the
 * batch as one parameter on both drivers.
 */
export async function saveTasks(tx: Executor, rows: readonly TaskRow[]): Promise<void> {
  if (rows.length === 0) return;
  const batch = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      status: r.status,
      platform_task_id: r.platformTaskId,
      webhook_key_hash: r.webhookKeyHash,
      webhook_expected: r.webhookExpected,
      title: r.title,
      favourite: r.favourite,
      deleted_at: r.deletedAt,
      output: r.output ?? null,
      usage_info: r.usageInfo ?? null,
      price: r.price,
      currency: r.currency,
      error: r.error,
      unknown_status: r.unknownStatus,
      file_url: r.fileUrl,
      file_expires_at: r.fileExpiresAt,
      archive_status: r.archiveStatus,
      archive_next_at: r.archiveNextAt,
      archive_error: r.archiveError,
      archive_attempts: r.archiveAttempts,
      cancel_requested_at: r.cancelRequestedAt,
      submit_started_at: r.submitStartedAt,
      submitted_at: r.submittedAt,
      finished_at: r.finishedAt,
      updated_at: r.updatedAt,
      last_event_at: r.lastEventAt,
      next_poll_at: r.nextPollAt,
      poll_count: r.pollCount,
      poll_errors: r.pollErrors,
    })),
  );
  await tx.execute(sql`
    update tasks as t set
      status = u.status, platform_task_id = u.platform_task_id, webhook_key_hash = u.webhook_key_hash,
      webhook_expected = u.webhook_expected, title = u.title, favourite = u.favourite,
      deleted_at = u.deleted_at, output = u.output, usage_info = u.usage_info, price = u.price, currency = u.currency, error = u.error,
      unknown_status = u.unknown_status, file_url = u.file_url, file_expires_at = u.file_expires_at,
      archive_status = u.archive_status, archive_next_at = u.archive_next_at,
      archive_error = u.archive_error, archive_attempts = u.archive_attempts,
      cancel_requested_at = u.cancel_requested_at, submit_started_at = u.submit_started_at,
      submitted_at = u.submitted_at, finished_at = u.finished_at, updated_at = u.updated_at,
      last_event_at = u.last_event_at, next_poll_at = u.next_poll_at, poll_count = u.poll_count,
      poll_errors = u.poll_errors
    from json_to_recordset(${batch}::json) as u(
      id uuid, status text, platform_task_id text, webhook_key_hash text, webhook_expected boolean,
      title text, favourite boolean, deleted_at timestamptz, output jsonb, usage_info jsonb, price float8, currency text, error text, unknown_status text, file_url text,
      file_expires_at timestamptz, archive_status text, archive_next_at timestamptz, archive_error text,
      archive_attempts integer,
      cancel_requested_at timestamptz, submit_started_at timestamptz, submitted_at timestamptz,
      finished_at timestamptz, updated_at timestamptz, last_event_at timestamptz,
      next_poll_at timestamptz, poll_count integer, poll_errors integer)
    where t.id = u.id`);
}
