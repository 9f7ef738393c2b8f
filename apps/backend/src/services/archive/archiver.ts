import { link, rm, utimes } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";
import { periodicRounds } from "../../lib/periodic.ts";
import { systemTimers, type Timers } from "../../lib/timers.ts";
import type { TaskRecord } from "../tasks/record.ts";
import type { ArchiveDeps } from "./deps.ts";
import { adoptUnarchived } from "./adopt.ts";
import { analyseInThread } from "./analysis-thread.ts";
import { createDownloader } from "./download.ts";
import { startHeartbeat } from "./heartbeat.ts";
import { type Claimed, createArchiveLeases, LEASE_MS, LeaseLostError } from "./leases.ts";
import { checkQuota } from "./quota.ts";
import { makeScratch, removeStaleScratch, scratchRoot } from "./scratch.ts";
import type { FileStore } from "./store.ts";
import { createResultStore } from "./store-result.ts";

export interface ArchiverOptions {
  files: FileStore;
  /** Used to download result files (tests route it to the emulator). */
  fetch: typeof fetch;
  intervalMs?: number;
  maxAttempts?: number;
  /** The lease heartbeat's timers (tests fire the renewals by hand). */
  timers?: Timers;
}

/** Results archived per round at most; the next round goes on. */
const ROUND_LIMIT = 10;

/** Peaks and rendition, or none when the samples cannot be read (or the archiver stops). */
async function analyse(
  logger: Logger,
  taskId: string,
  path: string,
  size: number,
  stop: AbortSignal,
) {
  try {
    return await analyseInThread({ path, size }, stop);
  } catch (error) {
    if (stop.aborted) return undefined;
    // Unreadable samples still leave a playable original: archive it without extras.
    logger.warn({ taskId, err: errorMessage(error) }, "no peaks or rendition for a result");
    return undefined;
  }
}

/**
 * Copies each successful result before the platform's link expires (spec 8: "usually 24 hours")
 * into the file store, with its waveform peaks and an MP3 rendition. Claims `pending` tasks with
 * `FOR UPDATE SKIP LOCKED` and a short lease, like the reconciler, so one instance fetches each
 * result once (leases.ts); a heartbeat renews it while the result is worked on, and a lost lease
 * stops that work (heartbeat.ts). The download goes to a scratch file; the files are written in small steps and
 * made visible with the peaks and the `archived` state in one short commit (store-result.ts).
 */
export function createArchiver(record: TaskRecord, deps: ArchiveDeps, options: ArchiverOptions) {
  const { db, logger, config } = deps;
  const { files } = options;
  const quotaBytes = config.archive.quotaBytes;
  const leases = createArchiveLeases(record, deps, options.maxAttempts ?? 5);
  const results = createResultStore(record, deps, files);
  const downloader = createDownloader({
    fetch: options.fetch,
    maxBytes: config.archive.maxFileBytes,
    allowList: {
      origins: [new URL(config.platform.baseUrl).origin],
      hosts: config.archive.allowedHosts,
    },
  });
  const adopt = () => adoptUnarchived(deps, (url) => downloader.allows(url));
  const timers = options.timers ?? systemTimers;

  /** Renews the lease and marks the scratch folder fresh, so no start removes it (scratch.ts). */
  async function renewLease(task: Claimed, work: string): Promise<boolean> {
    if (!(await leases.renew(task))) return false;
    const now = new Date();
    await utimes(work, now, now).catch(() => undefined);
    return true;
  }

  /** Archives one claimed result; false when none can be, for now (no scratch folder). */
  async function archiveOne(task: Claimed): Promise<boolean> {
    const userId = Number(task.user_id);
    let work: string;
    try {
      work = await makeScratch(files.workDir);
    } catch (error) {
      await leases.noScratch(task, scratchRoot(files.workDir), error);
      return false;
    }
    const stop = new AbortController();
    inFlight.add(stop);
    const heartbeat = startHeartbeat({
      renew: () => renewLease(task, work),
      lost: () => {
        stop.abort(new LeaseLostError(task.id));
      },
      timers,
      logger,
      taskId: task.id,
    });
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
      // On its own thread, while the original is written (never rejects). It reads the file by
      // a second name: the folder store moves the download into place.
      const analysed = join(work, "analysed");
      await link(path, analysed);
      const analysis = analyse(logger, task.id, analysed, downloaded.bytes, stop.signal);
      await results.store(task, userId, path, downloaded, analysis, stop.signal);
    } catch (error) {
      await heartbeat.end(); // before the release: no renewal may follow it
      // Another instance's now: its rows and its attempt are left alone.
      if (heartbeat.lost || error instanceof LeaseLostError)
        logger.info({ taskId: task.id }, "archiving stopped: the lease was lost");
      else if (stop.signal.aborted) await leases.releaseLease(task);
      else await leases.failed(task, error);
    } finally {
      await heartbeat.end();
      inFlight.delete(stop);
      stop.abort(); // ends an analysis the store no longer waits for (it failed)
      await rm(work, { recursive: true, force: true });
    }
    return true;
  }

  /** The abort of every download, analysis or store in progress. */
  const inFlight = new Set<AbortController>();
  let halted = false;
  const nextClaim = (count: number) =>
    halted || count >= ROUND_LIMIT ? Promise.resolve(undefined) : leases.claim();

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
    adoptUnarchived: adopt,
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
      await adopt().catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, "queueing earlier results for archiving failed");
      });
      await rounds.start();
    },
  };
}

export type Archiver = ReturnType<typeof createArchiver>;
