import { and, eq, isNull } from "drizzle-orm";
import { archiveFiles, archivePeaks, type ArchiveFileRow, tasks } from "../../db/schema/index.ts";
import { isTaskId, type TaskRecord } from "../tasks/record.ts";
import type { ArchiveDeps } from "./deps.ts";
import type { Vault } from "../../lib/vault.ts";
import { createArchiver } from "./archiver.ts";
import { type AudioFormat, createMediaLinks } from "./media-links.ts";
import { archiveUsage } from "./quota.ts";
import { RENDITION_CONTENT_TYPE } from "./rendition.ts";
import { createArchiveRetention } from "./retention.ts";
import { createFileStore } from "./store.ts";

/**
 * The archive wing: the file store (Postgres chunks or a folder), the archiver that fills it,
 * retention that empties it, and the reads the routes need. Off (`ARCHIVE_STORAGE=off`): no
 * archiver, but files archived earlier are still served.
 */
export function createArchiveServices(
  record: TaskRecord,
  deps: ArchiveDeps & { fetch: typeof fetch; vault: Vault },
) {
  const { db, config, clock } = deps;
  const storage = config.archive.storage;
  const files = createFileStore(db, {
    storage: storage === "off" ? "postgres" : storage,
    ...(config.archive.dir ? { dir: config.archive.dir } : {}),
  });
  return {
    files,
    archiver:
      storage === "off" ? undefined : createArchiver(record, deps, { files, fetch: deps.fetch }),
    retention: createArchiveRetention(record, deps, { files }),

    mediaLinks: createMediaLinks({ vault: deps.vault, clock, publicUrl: config.publicUrl }),

    /**
     * The readable stored file that answers `format` for an archived task: `mp3` is the original
     * when that is one already; `wav` only an original that is one.
     */
    async audioFile(taskId: string, format: AudioFormat) {
      // A task has at most its original and its rendition: both in one query.
      const stored = await db
        .select()
        .from(archiveFiles)
        .where(and(eq(archiveFiles.taskId, taskId), eq(archiveFiles.complete, true)));
      const chosen = fileFor(stored, format);
      return chosen && (await files.readable(chosen)) ? chosen : undefined;
    },

    /**
     * The same for a task that is the user's, not deleted and archived, in one query (the media
     * routes ask it on every play and seek). Undefined says neither which condition failed nor
     * whether the task exists: the caller asks that only on this, the rare, path.
     */
    async ownedAudioFile(userId: number, taskId: string, format: AudioFormat) {
      if (!isTaskId(taskId)) return undefined;
      const stored = await db
        .select({ file: archiveFiles })
        .from(archiveFiles)
        .innerJoin(tasks, eq(tasks.id, archiveFiles.taskId))
        .where(
          and(
            eq(archiveFiles.taskId, taskId),
            eq(archiveFiles.complete, true),
            eq(tasks.userId, userId),
            isNull(tasks.deletedAt),
            eq(tasks.archiveStatus, "archived"),
          ),
        );
      const chosen = fileFor(
        stored.map((row) => row.file),
        format,
      );
      return chosen && (await files.readable(chosen)) ? chosen : undefined;
    },

    async peaks(taskId: string) {
      const [row] = await db.select().from(archivePeaks).where(eq(archivePeaks.taskId, taskId));
      return row;
    },

    /** What the user's archive holds, and the limits the operator set. */
    async usage(userId: number) {
      return {
        usedBytes: await archiveUsage(db, userId),
        quotaBytes: config.archive.quotaBytes,
        retentionMs: config.archive.retentionMs,
      };
    },
  };
}

const isWav = (contentType: string) => /^audio\/(x-)?wave?$/.test(contentType);

/** Of a task's stored files, the one answering `format` (see `audioFile`). */
function fileFor(stored: readonly ArchiveFileRow[], format: AudioFormat) {
  const original = stored.find((f) => f.kind === "original");
  if (format === "mp3" && original?.contentType !== RENDITION_CONTENT_TYPE)
    return stored.find((f) => f.kind === "rendition");
  if (format === "wav" && original && !isWav(original.contentType)) return undefined;
  return original;
}

export type ArchiveServices = ReturnType<typeof createArchiveServices>;
