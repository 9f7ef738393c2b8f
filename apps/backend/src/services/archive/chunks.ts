import { createReadStream } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { queryRows } from "../../db/rows.ts";

/**
 * 64 KiB: one chunk is one INSERT, its own transaction, and on PGlite (one connection, on the
 * event loop's thread) every other query waits for it; larger chunks held it longer (BENCHMARKS.md, notes).
 * Files keep the size they were written with (`archive_files.chunk_bytes`).
 */
export const CHUNK_BYTES = 64 * 1024;
/** Chunks per SELECT while streaming a file out. */
const READ_BATCH = 8;
/** Chunks per DELETE when a file is removed: a whole file in one statement held PGlite too long. */
export const DROP_BATCH = 16;

/**
 * Bytes travel as base64 text, decoded and encoded by Postgres itself: PGlite otherwise turns
 * bytea parameters and results into hex in JavaScript, measured here 5× slower to write and 16×
 * slower to read (40 × 256 KiB: 1.5 s against 0.3 s); node-postgres parses hex results in
 * JavaScript too. After each chunk the writer rests twice as long as the chunk took, so archiving
 * is background work: requests find the database free two thirds of the time, where back-to-back
 * chunks made each of their queries wait behind one. It costs little time to archive while the
 * analysis, which takes about as long, runs beside the writes.
 */
async function insertChunk(db: AppDatabase, fileId: string, seq: number, data: Buffer) {
  const started = performance.now();
  await db.execute(
    sql`insert into archive_chunks (file_id, seq, data)
        values (${fileId}::uuid, ${seq}, decode(${data.toString("base64")}, 'base64'))`,
  );
  await restAfter(started);
}

/** Waits twice as long as the step begun at `started` took (the database's turn for the rest). */
const restAfter = (started: number) => sleep(2 * (performance.now() - started));

/**
 * Copies a file into `archive_chunks`, a chunk per statement (the file's row says it is not
 * complete yet, so no reader looks). `stop` ends it between two chunks.
 */
export async function writeChunks(
  db: AppDatabase,
  fileId: string,
  path: string,
  stop?: AbortSignal,
): Promise<void> {
  let seq = 0;
  let pending: Buffer = Buffer.alloc(0);
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  for await (const piece of stream as AsyncIterable<Buffer>) {
    pending = pending.length > 0 ? Buffer.concat([pending, piece]) : piece;
    while (pending.length >= CHUNK_BYTES) {
      stop?.throwIfAborted();
      await insertChunk(db, fileId, seq++, pending.subarray(0, CHUNK_BYTES));
      pending = pending.subarray(CHUNK_BYTES);
    }
  }
  if (pending.length > 0) await insertChunk(db, fileId, seq, pending);
}

/** Writes an in-memory file (the rendition) the same way. */
export async function writeChunksOf(
  db: AppDatabase,
  fileId: string,
  bytes: Buffer,
  stop?: AbortSignal,
): Promise<void> {
  for (let start = 0, seq = 0; start < bytes.length; start += CHUNK_BYTES, seq += 1) {
    stop?.throwIfAborted();
    await insertChunk(db, fileId, seq, bytes.subarray(start, start + CHUNK_BYTES));
  }
}

/**
 * Deletes a file's chunks a few at a time, so removing a 46 MB file never holds the database.
 * Another removal of the same file may run at once (a purge round of another instance, the sweep
 * of abandoned files): SKIP LOCKED takes the chunks it is not deleting, where waiting for them
 * would delete nothing, end the loop early and leave the rest to one DELETE cascading from the
 * file's row.
 */
export async function dropChunks(db: AppDatabase, fileId: string): Promise<void> {
  for (;;) {
    const started = performance.now();
    const gone = await queryRows(
      db,
      sql`delete from archive_chunks where file_id = ${fileId}::uuid and seq in (
            select seq from archive_chunks where file_id = ${fileId}::uuid
            order by seq limit ${DROP_BATCH} for update skip locked)
          returning 1`,
    );
    if (gone.length < DROP_BATCH) return;
    await restAfter(started);
  }
}

/**
 * Bytes `start`..`end` (inclusive) of a stored file as a pull stream: each pull reads the next
 * few chunks, so a client that stops reading stops the queries, and a range costs only its chunks.
 */
export function readChunks(
  db: AppDatabase,
  fileId: string,
  chunkBytes: number,
  start: number,
  end: number,
): ReadableStream<Uint8Array> {
  let seq = Math.floor(start / chunkBytes);
  const last = Math.floor(end / chunkBytes);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const upTo = Math.min(last, seq + READ_BATCH - 1);
        const rows = await queryRows<{ seq: number; data: string }>(
          db,
          sql`select seq, encode(data, 'base64') as data from archive_chunks
              where file_id = ${fileId}::uuid and seq between ${seq} and ${upTo} order by seq`,
        );
        if (rows.length !== upTo - seq + 1) {
          controller.error(new Error(`archive file ${fileId} is missing chunks`));
          return;
        }
        for (const row of rows) {
          const data = Buffer.from(row.data, "base64");
          const offset = row.seq * chunkBytes;
          const from = Math.max(0, start - offset);
          const to = Math.min(data.length, end - offset + 1);
          controller.enqueue(data.subarray(from, to));
        }
        seq = upTo + 1;
        if (seq > last) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
