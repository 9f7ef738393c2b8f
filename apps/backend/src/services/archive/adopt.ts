import { sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.ts";
import type { ArchiveDeps } from "./deps.ts";
import type { Claimed } from "./leases.ts";

/**
 * Results whose link still works are queued once when an archiver starts if they were never
 * tried (they finished while archiving was off, or before it was on by default) or were refused
 * for a host the allow-list takes now (the operator added the platform's file host to
 * ARCHIVE_ALLOWED_HOSTS and restarted): nothing is lost by upgrading or by fixing the list.
 */
export async function adoptUnarchived(
  { db, clock, logger }: ArchiveDeps,
  allows: (url: string) => boolean,
): Promise<void> {
  const now = new Date(clock.now()).toISOString();
  const linkWorks = sql`file_url is not null and deleted_at is null
    and (file_expires_at is null or file_expires_at > ${now}::timestamptz)`;
  const adopted = await queryRows<{ id: string }>(
    db,
    sql`update tasks set archive_status = 'pending', archive_next_at = ${now}::timestamptz
        where status = 'success' and archive_status is null and ${linkWorks}
        returning id`,
  );
  if (adopted.length > 0)
    logger.info({ tasks: adopted.length }, "earlier results queued for archiving");
  const refused = await queryRows<Pick<Claimed, "id" | "file_url">>(
    db,
    sql`select id, user_id, file_url from tasks
        where archive_status = 'failed' and archive_error = 'url_refused' and ${linkWorks}`,
  );
  const allowed = refused.filter((task) => allows(task.file_url)).map((t) => t.id);
  if (allowed.length === 0) return;
  await db.execute(
    sql`update tasks set archive_status = 'pending', archive_error = null, archive_attempts = 0,
          archive_next_at = ${now}::timestamptz
        where archive_status = 'failed' and archive_error = 'url_refused'
          and id in (${sql.join(
            allowed.map((id) => sql`${id}`),
            sql`, `,
          )})`,
  );
  logger.info({ tasks: allowed.length }, "results refused for a host now allowed, queued again");
}
