import { createReadStream } from "node:fs";
import { and, between, eq } from "drizzle-orm";
import type { AppDatabase, Transaction } from "../../db/client.ts";
import { archiveChunks } from "../../db/schema/index.ts";

/** 256 KiB: a seek costs at most this much extra reading; a 46 MB WAV is ~180 rows. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks per INSERT (2 MiB of parameters) and per SELECT while streaming. */
const BATCH = 8;

/**
 * Copies a file into `archive_chunks` inside the caller's transaction: if anything fails later
 * in it, no chunk remains. Reads `CHUNK_BYTES` at a time, so memory stays at one batch.
 */
export async function writeChunks(tx: Transaction, fileId: string, path: string): Promise<void> {
  let seq = 0;
  let batch: { fileId: string; seq: number; data: Uint8Array }[] = [];
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let pending: Buffer = Buffer.alloc(0);
  const flush = async () => {
    if (batch.length > 0) await tx.insert(archiveChunks).values(batch);
    batch = [];
  };
  const push = async (data: Buffer) => {
    batch.push({ fileId, seq: seq++, data });
    if (batch.length === BATCH) await flush();
  };
  for await (const piece of stream as AsyncIterable<Buffer>) {
    pending = pending.length > 0 ? Buffer.concat([pending, piece]) : piece;
    while (pending.length >= CHUNK_BYTES) {
      await push(pending.subarray(0, CHUNK_BYTES));
      pending = pending.subarray(CHUNK_BYTES);
    }
  }
  if (pending.length > 0) await push(pending);
  await flush();
}

/** Writes an in-memory file (the rendition) the same way. */
export async function writeChunksOf(tx: Transaction, fileId: string, bytes: Buffer): Promise<void> {
  for (let start = 0, seq = 0; start < bytes.length; seq += BATCH) {
    const rows = [];
    for (let i = 0; i < BATCH && start < bytes.length; i += 1, start += CHUNK_BYTES)
      rows.push({ fileId, seq: seq + i, data: bytes.subarray(start, start + CHUNK_BYTES) });
    await tx.insert(archiveChunks).values(rows);
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
        const upTo = Math.min(last, seq + BATCH - 1);
        const rows = await db
          .select({ seq: archiveChunks.seq, data: archiveChunks.data })
          .from(archiveChunks)
          .where(and(eq(archiveChunks.fileId, fileId), between(archiveChunks.seq, seq, upTo)))
          .orderBy(archiveChunks.seq);
        if (rows.length !== upTo - seq + 1) {
          controller.error(new Error(`archive file ${fileId} is missing chunks`));
          return;
        }
        for (const row of rows) {
          const offset = row.seq * chunkBytes;
          const from = Math.max(0, start - offset);
          const to = Math.min(row.data.length, end - offset + 1);
          controller.enqueue(row.data.subarray(from, to));
        }
        seq = upTo + 1;
        if (seq > last) controller.close();
      },
    },
    { highWaterMark: 1 },
  );
}
