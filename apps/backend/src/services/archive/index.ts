import { and, eq } from "drizzle-orm";
import { archiveFiles, archivePeaks, type ArchiveFileKind } from "../../db/schema/index.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";
import { createArchiver } from "./archiver.ts";
import { archiveUsage } from "./quota.ts";
import { createArchiveRetention } from "./retention.ts";
import { createFileStore } from "./store.ts";

/**
 * The archive wing: the file store (Postgres chunks or a folder), the archiver that fills it,
 * retention that empties it, and the reads the routes need. Off (`ARCHIVE_STORAGE=off`): no
 * archiver, but files archived earlier are still served.
 */
export function createArchiveServices(runtime: TaskRuntime, deps: { fetch: typeof fetch }) {
  const { db, config } = runtime.deps;
  const storage = config.archive.storage;
  const files = createFileStore(db, {
    storage: storage === "off" ? "postgres" : storage,
    ...(config.archive.dir ? { dir: config.archive.dir } : {}),
  });
  return {
    files,
    archiver: storage === "off" ? undefined : createArchiver(runtime, { files, fetch: deps.fetch }),
    retention: createArchiveRetention(runtime, { files }),

    /** A task's stored file of one kind. */
    async file(taskId: string, kind: ArchiveFileKind) {
      const [row] = await db
        .select()
        .from(archiveFiles)
        .where(and(eq(archiveFiles.taskId, taskId), eq(archiveFiles.kind, kind)));
      return row;
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

export type ArchiveServices = ReturnType<typeof createArchiveServices>;
