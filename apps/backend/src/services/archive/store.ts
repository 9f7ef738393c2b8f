import { createReadStream } from "node:fs";
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { and, eq, inArray } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import type { Executor } from "../../db/rows.ts";
import {
  archiveFiles,
  type ArchiveFileKind,
  type ArchiveFileRow,
  type ArchiveStorage,
} from "../../db/schema/index.ts";
import { CHUNK_BYTES, dropChunks, readChunks, writeChunks, writeChunksOf } from "./chunks.ts";

export interface NewFile {
  taskId: string;
  userId: number;
  kind: ArchiveFileKind;
  contentType: string;
  bytes: number;
  /** A file on local disk (moved into the folder store, or copied into chunks) or bytes in memory. */
  source: { path: string } | { data: Buffer };
}

/** A file row written but not complete: what `fill`, `complete` and `discard` act on. */
export type PendingFile = Pick<ArchiveFileRow, "id" | "storage" | "path">;

/**
 * Where archived files live: rows of `archive_chunks` (`postgres`, the default: every instance
 * reads them) or files in ARCHIVE_DIR (`folder`). A file is stored in three steps — its row
 * (`begin`, not complete), its bytes (`fill`, in small transactions), then `complete` in the
 * caller's transaction — so a reader sees only whole files, and none holds the database long.
 */
export function createFileStore(
  db: AppDatabase,
  options: { storage: ArchiveStorage; dir?: string },
) {
  const folderPath = (name: string) => {
    if (!options.dir) throw new Error("ARCHIVE_DIR is unset: this file lives in a folder store");
    return join(options.dir, basename(name));
  };

  return {
    storage: options.storage,
    /** Scratch space for downloads: inside the folder store (a rename then moves a file in). */
    workDir: options.storage === "folder" ? folderPath(".partial") : undefined,

    /** Writes the row of a file to come, not complete: no reader, quota or expiry counts it. */
    async begin(tx: Executor, file: Omit<NewFile, "source">): Promise<PendingFile> {
      const id = randomUUID();
      const path = options.storage === "folder" ? id : null;
      await tx.insert(archiveFiles).values({
        id,
        taskId: file.taskId,
        userId: file.userId,
        kind: file.kind,
        contentType: file.contentType,
        bytes: file.bytes,
        storage: options.storage,
        chunkBytes: options.storage === "postgres" ? CHUNK_BYTES : 0,
        path,
        complete: false,
      });
      return { id, storage: options.storage, path };
    },

    /** Writes the bytes of a begun file: chunks a statement each, or a file moved into the folder. */
    async fill(file: PendingFile, source: NewFile["source"], stop?: AbortSignal): Promise<void> {
      if (file.storage === "postgres") {
        if ("path" in source) await writeChunks(db, file.id, source.path, stop);
        else await writeChunksOf(db, file.id, source.data, stop);
        return;
      }
      const target = folderPath(file.path ?? "");
      await mkdir(options.dir ?? "", { recursive: true });
      if ("path" in source) await rename(source.path, target);
      else await writeFile(target, source.data);
    },

    /** Makes begun and filled files readable, within the caller's transaction. */
    async complete(tx: Executor, stored: readonly PendingFile[]): Promise<void> {
      if (stored.length === 0) return;
      await tx
        .update(archiveFiles)
        .set({ complete: true })
        .where(
          inArray(
            archiveFiles.id,
            stored.map((f) => f.id),
          ),
        );
    },

    /**
     * Removes files and their bytes, chunks a few at a time: a file the archiver gave up on, one
     * a crash left half-written, or (already hidden) one a purge or retention removes.
     */
    async discard(stored: readonly PendingFile[]): Promise<void> {
      for (const file of stored) {
        if (file.storage === "postgres") await dropChunks(db, file.id);
        else if (file.path && options.dir) await rm(folderPath(file.path), { force: true });
        await db.delete(archiveFiles).where(eq(archiveFiles.id, file.id));
      }
    },

    /** The files of `taskId` a stopped or crashed attempt left incomplete. */
    async leftovers(taskId: string): Promise<PendingFile[]> {
      return db
        .select({ id: archiveFiles.id, storage: archiveFiles.storage, path: archiveFiles.path })
        .from(archiveFiles)
        .where(and(eq(archiveFiles.taskId, taskId), eq(archiveFiles.complete, false)));
    },

    /** Whether the file can be read here (a folder file needs ARCHIVE_DIR, and the file). */
    async readable(file: ArchiveFileRow): Promise<boolean> {
      if (file.storage === "postgres") return true;
      if (!options.dir || !file.path) return false;
      return stat(folderPath(file.path)).then(
        (s) => s.size === file.bytes,
        () => false,
      );
    },

    /** Bytes `start`..`end` (inclusive) of a stored file. */
    read(file: ArchiveFileRow, start: number, end: number): ReadableStream<Uint8Array> {
      if (file.storage === "postgres") return readChunks(db, file.id, file.chunkBytes, start, end);
      const stream = createReadStream(folderPath(file.path ?? ""), { start, end });
      return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
