import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../src/db/client.ts";
import { selectRows } from "./sql.ts";

/**
 * Triggers that record, inside the database, how archived files are written and removed: each
 * statement that inserts chunks, each time a file is hidden (`complete` turned false) and each
 * statement that deletes chunks, with its transaction, the rows it touched and whether the file
 * was visible then. The database sees every
 * statement of either driver, so the order of the steps is observed, not timed.
 */
const INSTALL = [
  sql`create table test_chunk_audit (
        n bigserial primary key,
        what text not null,
        xact bigint not null default txid_current(),
        file_id uuid not null,
        chunks int not null default 0,
        file_complete boolean
      )`,
  sql`create function test_chunk_audit_write() returns trigger language plpgsql as $$
      begin
        insert into test_chunk_audit (what, file_id, chunks, file_complete)
          select 'write', a.file_id, count(*), bool_or(f.complete)
          from added a left join archive_files f on f.id = a.file_id group by a.file_id;
        return null;
      end $$`,
  sql`create trigger test_chunk_audit_write after insert on archive_chunks
        referencing new table as added for each statement
        execute function test_chunk_audit_write()`,
  sql`create function test_chunk_audit_hide() returns trigger language plpgsql as $$
      begin
        insert into test_chunk_audit (what, file_id) values ('hide', new.id);
        return null;
      end $$`,
  sql`create trigger test_chunk_audit_hide after update of complete on archive_files
        for each row when (old.complete and not new.complete)
        execute function test_chunk_audit_hide()`,
  // A cascade from a deleted file row is a statement too, so a file dropped whole is recorded.
  sql`create function test_chunk_audit_drop() returns trigger language plpgsql as $$
      begin
        insert into test_chunk_audit (what, file_id, chunks, file_complete)
          select 'drop', o.file_id, count(*), bool_or(f.complete)
          from gone o left join archive_files f on f.id = o.file_id group by o.file_id;
        return null;
      end $$`,
  sql`create trigger test_chunk_audit_drop after delete on archive_chunks
        referencing old table as gone for each statement
        execute function test_chunk_audit_drop()`,
];

export interface ChunkAuditRow {
  n: number;
  what: "write" | "hide" | "drop";
  xact: string;
  file_id: string;
  chunks: number;
  /** For a write or a drop: whether readers could see the file (null: its row was gone). */
  file_complete: boolean | null;
}

export async function installChunkAudit(db: AppDatabase): Promise<void> {
  for (const statement of INSTALL) await db.execute(statement);
}

/** Forgets what was recorded so far (what the next removal does is read alone). */
export async function clearChunkAudit(db: AppDatabase): Promise<void> {
  await db.execute(sql`delete from test_chunk_audit`);
}

/** What was recorded, in order. */
export async function readChunkAudit(db: AppDatabase): Promise<ChunkAuditRow[]> {
  return selectRows<ChunkAuditRow>(
    db,
    sql`select n::int as n, what, xact::text as xact, file_id, chunks, file_complete
        from test_chunk_audit order by n`,
  );
}

/** Chunk counts of a task's stored files, by file id. */
export async function chunksByFile(db: AppDatabase, taskId: string): Promise<Map<string, number>> {
  const rows = await selectRows<{ id: string; chunks: string }>(
    db,
    sql`select f.id, count(c.seq) as chunks from archive_files f
        left join archive_chunks c on c.file_id = f.id
        where f.task_id = ${taskId} group by f.id`,
  );
  return new Map(rows.map((row) => [row.id, Number(row.chunks)]));
}
