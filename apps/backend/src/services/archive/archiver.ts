import { rm } from "node:fs/promises";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/rows.ts";
import { archivePeaks, tasks } from "../../db/schema/index.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { periodicRounds } from "../../lib/periodic.ts";
import type { TaskRuntime } from "../tasks/runtime.ts";
import { analyseAudio, type Analysis } from "./analyse.ts";
import { ArchiveError, createDownloader, type Downloaded, RefusedUrlError } from "./download.ts";
import { checkQuota, lockUserArchive } from "./quota.ts";
import { RENDITION_CONTENT_TYPE } from "./rendition.ts";
import { makeScratch, removeStaleScratch, scratchRoot } from "./scratch.ts";
import type { FileStore, NewFile, PendingFile } from "./store.ts";

export interface ArchiverOptions {
  files: FileStore;
  /** Used to download result files (tests route it to the emulator). */
  fetch: typeof fetch;
  intervalMs?: number;
  maxAttempts?: number;
}

/** Longer than a download may take (2 min) plus analysis and storing: one claim, one fetch. */
const LEASE_MS = 10 * 60_000;
/** When a result waits for a scratch folder, it is tried again this much later. */
const SCRATCH_RETRY_MS = 60_000;
/** Results archived per round at most; the next round goes on. */
const ROUND_LIMIT = 10;

interface Claimed {
  id: string;
  user_id: string;
  file_url: string;
}

/**
 * Copies each successful result before the platform's link expires (spec 8: "usually 24 hours")
 * into the file store, with its waveform peaks and an MP3 rendition. Claims `pending` tasks with
 * `FOR UPDATE SKIP LOCKED` and a lease, like the reconciler, so one instance fetches each result
 * once. The download goes to a scratch file; the files, peaks and the task's `archived` state are
 * then written in one transaction, after the quota check: a failure leaves nothing behind.
 */
export function createArchiver(runtime: TaskRuntime, options: ArchiverOptions) {
  const { db, clock, logger, config } = runtime.deps;
  const { files } = options;
  const quotaBytes = config.archive.quotaBytes;
  const maxAttempts = options.maxAttempts ?? 5;
  const downloader = createDownloader({
    fetch: options.fetch,
    maxBytes: config.archive.maxFileBytes,
    allowList: {
      origins: [new URL(config.platform.baseUrl).origin],
      hosts: config.archive.allowedHosts,
    },
  });

  /** One task at a time: its lease then covers only its own download, however slow the others. */
  async function claim(): Promise<Claimed | undefined> {
    const now = new Date(clock.now()).toISOString();
    const lease = new Date(clock.now() + LEASE_MS).toISOString();
    const [task] = await queryRows<Claimed>(
      db,
      sql`
      update tasks set archive_next_at = ${lease}::timestamptz
      where id in (
        select id from tasks where archive_status = 'pending' and archive_next_at <= ${now}::timestamptz
          and deleted_at is null -- a deleted track is purged, not archived (restored: archived then)
        order by archive_next_at limit 1 for update skip locked)
      returning id, user_id, file_url`,
    );
    return task;
  }

  async function analyse(taskId: string, path: string, bytes: number) {
    try {
      return await analyseAudio(path, bytes);
    } catch (error) {
      // Unreadable samples still leave a playable original: archive it without extras.
      logger.warn({ taskId, err: errorMessage(error) }, "no peaks or rendition for a result");
      return undefined;
    }
  }

  /**
   * Writes the files in small steps (their rows say incomplete, so no reader looks), then marks
   * them complete with the peaks and the `archived` state in one short transaction, after the
   * quota check. Anything failing on the way removes what was written.
   */
  async function store(
    task: Claimed,
    userId: number,
    path: string,
    { contentType, bytes }: Downloaded,
    extra: Analysis | undefined,
    stop: AbortSignal,
  ) {
    // A crashed or stopped attempt's half-written files.
    await files.discard(await files.leftovers(task.id));
    const parts: Omit<NewFile, "taskId" | "userId">[] = [
      { kind: "original", contentType, bytes, source: { path } },
    ];
    if (extra) {
      const { rendition } = extra;
      const meta = { contentType: RENDITION_CONTENT_TYPE, bytes: rendition.length };
      parts.push({ kind: "rendition", ...meta, source: { data: rendition } });
    }
    const begun: PendingFile[] = [];
    logger.debug({ taskId: task.id, bytes }, "archiving: storing a result");
    try {
      for (const { source, ...meta } of parts) {
        const file = await files.begin(db, { taskId: task.id, userId, ...meta });
        begun.push(file);
        await files.fill(file, source, stop);
      }
      stop.throwIfAborted();
      const stored = await markArchived(task, userId, begun, parts, extra);
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
    parts: readonly Pick<NewFile, "bytes">[],
    extra: Analysis | undefined,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [row] = await tx.select().from(tasks).where(eq(tasks.id, task.id)).for("update");
      // Deleted meanwhile, or already archived (a lease outlived): nothing to store.
      if (row?.archiveStatus !== "pending") return false;
      await lockUserArchive(tx, userId);
      // The check that counts, under the user's lock: over the quota, nothing becomes visible.
      const needed = parts.reduce((sum, part) => sum + part.bytes, 0);
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
      await runtime.save(tx, [{ ...next, archiveNextAt: null, updatedAt: now }], "worker", [row]);
      return true;
    });
  }

  /** Archives one claimed result; false when none can be, for now (no scratch folder). */
  async function archiveOne(task: Claimed): Promise<boolean> {
    const userId = Number(task.user_id);
    let work: string;
    try {
      work = await makeScratch(files.workDir);
    } catch (error) {
      await noScratch(task, scratchRoot(files.workDir), error);
      return false;
    }
    const stop = new AbortController();
    inFlight.add(stop);
    try {
      // Over quota already: the platform is not even asked.
      await checkQuota(db, userId, 0, quotaBytes);
      const path = join(work, "original");
      const downloaded = await downloader.download(
        task.file_url,
        path,
        (declared) => checkQuota(db, userId, declared, quotaBytes),
        stop.signal,
      );
      stop.signal.throwIfAborted();
      const extra = await analyse(task.id, path, downloaded.bytes);
      stop.signal.throwIfAborted();
      await store(task, userId, path, downloaded, extra, stop.signal);
    } catch (error) {
      if (stop.signal.aborted) await releaseLease(task);
      else await failed(task, error);
    } finally {
      inFlight.delete(stop);
      await rm(work, { recursive: true, force: true });
    }
    return true;
  }

  /**
   * Stopped mid-way: the lease goes at once (no attempt spent), so another instance, or this one
   * once restarted, takes the result now rather than in ten minutes.
   */
  async function releaseLease(task: Claimed): Promise<void> {
    const now = new Date(clock.now()).toISOString();
    await db.execute(
      sql`update tasks set archive_next_at = ${now}::timestamptz
          where id = ${task.id} and archive_status = 'pending'`,
    );
    logger.info({ taskId: task.id }, "archiving stopped by shutdown; the result is released");
  }

  /**
   * The machine's fault, not the result's (a read-only /tmp under systemd's ProtectSystem, a full
   * disk): said loudly, and the task waits a minute without losing an attempt, instead of keeping
   * its ten-minute lease or failing for good.
   */
  async function noScratch(task: Claimed, scratch: string, error: unknown): Promise<void> {
    logger.error(
      { taskId: task.id, dir: scratch, err: errorMessage(error) },
      "archiving waits: no scratch folder could be made (check TMPDIR, or ARCHIVE_DIR)",
    );
    const retryAt = new Date(clock.now() + SCRATCH_RETRY_MS).toISOString();
    await db.execute(
      sql`update tasks set archive_next_at = ${retryAt}::timestamptz
          where id = ${task.id} and archive_status = 'pending'`,
    );
  }

  async function failed(task: Claimed, error: unknown): Promise<void> {
    const code = error instanceof ArchiveError ? error.code : "download_failed";
    // Retrying cannot change these answers.
    const final = code !== "download_failed";
    // A refusal is worth a warning: the platform (or a leaked webhook secret) named a foreign host.
    logger[error instanceof RefusedUrlError ? "warn" : "info"](
      { taskId: task.id, err: errorMessage(error) },
      "archiving a result failed",
    );
    await runtime.update(task.id, "worker", (row, now) => {
      if (row.archiveStatus !== "pending") return undefined;
      const attempts = row.archiveAttempts + 1;
      const expired = row.fileExpiresAt !== null && row.fileExpiresAt.getTime() <= now.getTime();
      if (final || attempts >= maxAttempts || expired) {
        return {
          ...row,
          archiveStatus: "failed",
          archiveError: code,
          archiveAttempts: attempts,
          archiveNextAt: null,
          updatedAt: now,
        };
      }
      return {
        ...row,
        archiveAttempts: attempts,
        archiveNextAt: new Date(now.getTime() + 30_000 * 2 ** attempts),
      };
    });
  }

  /**
   * Results whose link still works are queued once when an archiver starts if they were never
   * tried (they finished while archiving was off, or before it was on by default) or were refused
   * for a host the allow-list takes now (the operator added the platform's file host to
   * ARCHIVE_ALLOWED_HOSTS and restarted): nothing is lost by upgrading or by fixing the list.
   */
  async function adoptUnarchived(): Promise<void> {
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
    const refused = await queryRows<Claimed>(
      db,
      sql`select id, user_id, file_url from tasks
          where archive_status = 'failed' and archive_error = 'url_refused' and ${linkWorks}`,
    );
    const allowed = refused.filter((task) => downloader.allows(task.file_url)).map((t) => t.id);
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

  /** The abort of every download, analysis or store in progress. */
  const inFlight = new Set<AbortController>();
  let halted = false;
  const nextClaim = (count: number) =>
    halted || count >= ROUND_LIMIT ? Promise.resolve(undefined) : claim();

  function halt(): void {
    halted = true;
    for (const stop of inFlight) stop.abort(new Error("the archiver is stopping"));
  }

  const rounds = periodicRounds({
    run: async () => {
      let count = 0;
      for (let task = await nextClaim(0); task; task = await nextClaim(count)) {
        if (!(await archiveOne(task))) break; // the next ones would find no scratch folder either
        count += 1;
      }
      return count;
    },
    fallback: 0,
    intervalMs: options.intervalMs ?? 5_000,
    logger,
    what: "archive round",
  });
  return {
    ...rounds,
    adoptUnarchived,
    /**
     * The first step of a shutdown (SIGTERM): nothing new is claimed, and what is in flight is
     * aborted; its lease is released and its scratch removed as the round unwinds (`stop` waits).
     */
    halt,
    async stop(): Promise<void> {
      halt();
      await rounds.stop();
      // The timer is gone: only an explicit round (a test, a restart) archives from here.
      halted = false;
    },
    async start(): Promise<void> {
      halted = false;
      const stale = await removeStaleScratch(files.workDir, LEASE_MS).catch(() => 0);
      if (stale > 0) logger.info({ folders: stale }, "stale archive scratch folders removed");
      await adoptUnarchived().catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, "queueing earlier results for archiving failed");
      });
      await rounds.start();
    },
  };
}

export type Archiver = ReturnType<typeof createArchiver>;
