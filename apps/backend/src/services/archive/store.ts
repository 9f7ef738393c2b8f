import { createReadStream } from "node:fs";
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import type { AppDatabase, Transaction } from "../../db/client.ts";
import {
  archiveFiles,
  type ArchiveFileKind,
  type ArchiveFileRow,
  type ArchiveStorage,
} from "../../db/schema/index.ts";
import { CHUNK_BYTES, readChunks, writeChunks, writeChunksOf } from "./chunks.ts";

export interface NewFile {
  taskId: string;
  userId: number;
  kind: ArchiveFileKind;
  contentType: string;
  bytes: number;
  /** A file on local disk (moved into the folder store, or copied into chunks) or bytes in memory. */
  source: { path: string } | { data: Buffer };
}

/**
 * Where archived files live: rows of `archive_chunks` (`postgres`, the default: every instance
 * reads them) or files in ARCHIVE_DIR (`folder`). Either way the `archive_files` row is written in
 * the caller's transaction, so a file is listed only once it is whole.
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

    /**
     * Stores a file within `tx`. Returns what undoes the work outside the database when `tx`
     * rolls back (a folder file written before the commit).
     */
    async save(tx: Transaction, file: NewFile): Promise<{ undo: () => Promise<void> }> {
      const id = randomUUID();
      await tx.insert(archiveFiles).values({
        id,
        taskId: file.taskId,
        userId: file.userId,
        kind: file.kind,
        contentType: file.contentType,
        bytes: file.bytes,
        storage: options.storage,
        chunkBytes: options.storage === "postgres" ? CHUNK_BYTES : 0,
        path: options.storage === "folder" ? id : null,
      });
      if (options.storage === "postgres") {
        if ("path" in file.source) await writeChunks(tx, id, file.source.path);
        else await writeChunksOf(tx, id, file.source.data);
        return { undo: () => Promise.resolve() };
      }
      const target = folderPath(id);
      await mkdir(options.dir ?? "", { recursive: true });
      if ("path" in file.source) await rename(file.source.path, target);
      else await writeFile(target, file.source.data);
      return { undo: () => rm(target, { force: true }) };
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

    /** Removes folder files whose rows are gone (chunks go with their rows). */
    async removeFiles(files: readonly Pick<ArchiveFileRow, "storage" | "path">[]): Promise<void> {
      for (const file of files)
        if (file.storage === "folder" && file.path && options.dir)
          await rm(folderPath(file.path), { force: true });
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
