import { and, eq, sql } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import { queryRows, type Executor } from "../../db/rows.ts";
import { archiveFiles } from "../../db/schema/index.ts";
import { ARCHIVE_QUOTA_EXCEEDED } from "../../schemas/error-codes.ts";
import { ArchiveError } from "./download.ts";

export class QuotaExceededError extends ArchiveError {
  constructor(usedBytes: number, neededBytes: number, quotaBytes: number) {
    super(
      `storing ${neededBytes} more bytes would exceed the archive quota (${usedBytes} of ${quotaBytes} bytes used)`,
      ARCHIVE_QUOTA_EXCEEDED,
    );
  }
}

/** Bytes of archived files (originals and renditions) the user holds; half-written ones do not count. */
export async function archiveUsage(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ used: sql<string | null>`sum(${archiveFiles.bytes})` })
    .from(archiveFiles)
    .where(and(eq(archiveFiles.userId, userId), eq(archiveFiles.complete, true)));
  return Number(row?.used ?? 0);
}

/** Throws {@link QuotaExceededError} unless `neededBytes` more fit in the user's quota. */
export async function checkQuota(
  db: Executor,
  userId: number,
  neededBytes: number,
  quotaBytes: number | null,
): Promise<void> {
  if (quotaBytes === null) return;
  const used = await archiveUsage(db, userId);
  if (used + neededBytes > quotaBytes) throw new QuotaExceededError(used, neededBytes, quotaBytes);
}

/**
 * Takes the user's archive lock for the rest of `tx`: two instances storing two results of one
 * user at once then check the quota one after the other, never both squeezing under it.
 */
export async function lockUserArchive(tx: Transaction, userId: number): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`overture:archive-quota:${userId}`}, 0))`,
  );
}

/**
 * Queues again, for these users, the results refused for the quota whose platform link still
 * works: space was just freed (a purge or retention), so a refusal that was final when made
 * may now fit. A result still too big is refused again, and waits for the next freeing.
 */
export async function requeueQuotaRefused(
  db: Executor,
  userIds: readonly number[],
  now: Date,
): Promise<number> {
  if (userIds.length === 0) return 0;
  const at = now.toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update tasks set archive_status = 'pending', archive_error = null, archive_attempts = 0,
          archive_next_at = ${at}::timestamptz
        where user_id in (${sql.join(
          [...new Set(userIds)].map((id) => sql`${id}`),
          sql`, `,
        )})
          and archive_status = 'failed' and archive_error = ${ARCHIVE_QUOTA_EXCEEDED}
          and deleted_at is null and file_url is not null
          and (file_expires_at is null or file_expires_at > ${at}::timestamptz)
        returning id`,
  );
  return rows.length;
}
