import { eq } from "drizzle-orm";
import { archivePeaks, tasks } from "../../db/schema/index.ts";
import type { TaskRecord } from "../tasks/record.ts";
import type { ArchiveDeps } from "./deps.ts";
import type { Analysis } from "./analyse.ts";
import type { Downloaded } from "./download.ts";
import { type Claimed, assertClaim } from "./leases.ts";
import { checkQuota, lockUserArchive } from "./quota.ts";
import { RENDITION_CONTENT_TYPE } from "./rendition.ts";
import type { FileStore, NewFile, PendingFile } from "./store.ts";

/** Stores a downloaded result: its files in small steps, then one short commit makes it visible. */
export function createResultStore(record: TaskRecord, deps: ArchiveDeps, files: FileStore) {
  const { db, clock, logger, config } = deps;
  const quotaBytes = config.archive.quotaBytes;

  /**
   * Writes the files in small steps (their rows say incomplete, so no reader looks), then marks
   * them complete with the peaks and the `archived` state in one short transaction, after the
   * quota check. Anything failing on the way removes what was written. The analysis runs on its
   * own thread meanwhile: it is awaited only once the original is written.
   */
  async function store(
    task: Claimed,
    userId: number,
    path: string,
    { contentType, bytes }: Downloaded,
    analysis: Promise<Analysis | undefined>,
    stop: AbortSignal,
  ) {
    // A crashed or stopped attempt's half-written files: listed, then the claim checked, so all
    // were begun under earlier claims, whose leases ran out (a live claimer renews its own). Such
    // a claimer, if it still runs, can add none: it begins a file only under its claim (below)
    // and its chunks find their file row gone. A claim lost before the check deletes nothing.
    const leftovers = await files.leftovers(task.id);
    await assertClaim(db, task);
    await files.discard(leftovers);
    const begun: PendingFile[] = [];
    const write = async ({ source, ...meta }: Omit<NewFile, "taskId" | "userId">) => {
      const file = await db.transaction(async (tx) => {
        await assertClaim(tx, task);
        return files.begin(tx, { taskId: task.id, userId, ...meta });
      });
      begun.push(file);
      await files.fill(file, source, stop);
      return meta.bytes;
    };
    logger.debug({ taskId: task.id, bytes }, "archiving: storing a result");
    try {
      let needed = await write({ kind: "original", contentType, bytes, source: { path } });
      const extra = await analysis;
      if (extra) {
        const { rendition } = extra;
        const meta = { contentType: RENDITION_CONTENT_TYPE, bytes: rendition.length };
        needed += await write({ kind: "rendition", ...meta, source: { data: rendition } });
      }
      stop.throwIfAborted();
      const stored = await markArchived(task, userId, begun, needed, extra);
      if (!stored) await files.discard(begun);
    } catch (error) {
      await files.discard(begun).catch(() => undefined);
      throw error;
    }
  }

  /** The commit that makes a result visible; false when the task is no longer `pending`. */
  async function markArchived(
    task: Claimed,
    userId: number,
    begun: readonly PendingFile[],
    needed: number,
    extra: Analysis | undefined,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(tasks).where(eq(tasks.id, task.id)).for("update");
      // Deleted meanwhile, or taken over (this lease ran out): nothing to store.
      if (row?.archiveStatus !== "pending" || row.archiveClaim !== task.claim) return false;
      await lockUserArchive(tx, userId);
      // The check that counts, under the user's lock: over the quota, nothing becomes visible.
      await checkQuota(tx, userId, needed, quotaBytes);
      if (extra) {
        const { data, ...peaks } = extra.peaks;
        await tx.insert(archivePeaks).values({
          taskId: task.id,
          ...peaks,
          data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        });
      }
      await files.complete(tx, begun);
      const now = new Date(clock.now());
      const next = { ...row, archiveStatus: "archived" as const, archiveError: null };
      await record.save(tx, [{ ...next, archiveNextAt: null, updatedAt: now }], "worker", [row]);
      return true;
    });
  }

  return { store };
}
