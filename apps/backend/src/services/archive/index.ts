import { and, eq } from "drizzle-orm";
import { archiveFiles, archivePeaks, type ArchiveFileKind } from "../../db/schema/index.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";
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
  runtime: TaskRuntime,
  deps: { fetch: typeof fetch; vault: Vault },
) {
  const { db, config, clock } = runtime.deps;
  const storage = config.archive.storage;
  const file = async (taskId: string, kind: ArchiveFileKind) => {
    const [row] = await db
      .select()
      .from(archiveFiles)
      .where(and(eq(archiveFiles.taskId, taskId), eq(archiveFiles.kind, kind)));
    return row;
  };
  const files = createFileStore(db, {
    storage: storage === "off" ? "postgres" : storage,
    ...(config.archive.dir ? { dir: config.archive.dir } : {}),
  });
  return {
    files,
    archiver: storage === "off" ? undefined : createArchiver(runtime, { files, fetch: deps.fetch }),
    retention: createArchiveRetention(runtime, { files }),

    mediaLinks: createMediaLinks({ vault: deps.vault, clock, publicUrl: config.publicUrl }),

    /**
     * The readable stored file that answers `format` for an archived task: `mp3` is the original
     * when that is one already; `wav` only an original that is one.
     */
    async audioFile(taskId: string, format: AudioFormat) {
      const original = await file(taskId, "original");
      let chosen = original;
      if (format === "wav" && original && !isWav(original.contentType)) chosen = undefined;
      if (format === "mp3" && original?.contentType !== RENDITION_CONTENT_TYPE)
        chosen = await file(taskId, "rendition");
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

export type ArchiveServices = ReturnType<typeof createArchiveServices>;
