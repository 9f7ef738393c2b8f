import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { sql } from "drizzle-orm";
import type { TaskRuntime } from "./runtime.ts";
import { queryRows } from "../../db/rows.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { isAllowedHost, type HostAllowList } from "../../lib/host-allowlist.ts";
import { periodicRounds } from "../../lib/periodic.ts";

export interface ArchiverOptions {
  /** ARCHIVE_DIR. */
  dir: string;
  /** Used to download result files (tests route it to the emulator). */
  fetch: typeof fetch;
  maxBytes?: number;
  intervalMs?: number;
  maxAttempts?: number;
}

const LEASE_MS = 5 * 60_000;
/** Redirects followed per download, each checked against the allow-list. */
const MAX_REDIRECTS = 3;

class ArchiveError extends Error {
  override readonly name = "ArchiveError";
}

/** A URL the allow-list refuses: it never will be allowed, so the task fails without retries. */
class RefusedUrlError extends ArchiveError {}

/**
 * Copies result files into ARCHIVE_DIR before the platform's link expires (spec 8: "usually 24
 * hours"): streamed to disk, capped in size, audio only. Claims `pending` rows with `FOR UPDATE
 * SKIP LOCKED` and a lease, like the reconciler. An archived task's JSON gains `audio_url`.
 * Only the platform's origin and ARCHIVE_ALLOWED_HOSTS are fetched, redirects included: whoever
 * can sign a webhook chooses `file_url` (SECURITY.md).
 */
export function createArchiver(runtime: TaskRuntime, options: ArchiverOptions) {
  const { deps } = runtime;
  const { db, clock, logger } = deps;
  const maxBytes = options.maxBytes ?? 100 * 1024 * 1024;
  const maxAttempts = options.maxAttempts ?? 5;
  const doFetch = options.fetch;
  const allowList: HostAllowList = {
    origins: [new URL(deps.config.platform.baseUrl).origin],
    hosts: deps.config.archiveAllowedHosts,
  };

  /** The URL if the allow-list takes it; the error names the host, never the path or query. */
  function checked(target: string, base?: URL): URL {
    if (!URL.canParse(target, base)) throw new RefusedUrlError("refused: not a URL");
    const url = new URL(target, base);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new RefusedUrlError(`refused: scheme "${url.protocol}" is not http(s)`);
    if (url.username || url.password) throw new RefusedUrlError("refused: the URL has user info");
    if (!isAllowedHost(url, allowList))
      throw new RefusedUrlError(
        `refused: host "${url.host}" is not the platform's nor in ARCHIVE_ALLOWED_HOSTS`,
      );
    return url;
  }

  /** GET with every redirect checked first: a 3xx must not lead the download off the list. */
  async function fetchAllowed(target: string): Promise<Response> {
    const signal = AbortSignal.timeout(120_000);
    let url = checked(target);
    for (let hop = 0; ; hop += 1) {
      const response = await doFetch(url, { signal, redirect: "manual" });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new ArchiveError(`more than ${MAX_REDIRECTS} redirects`);
      url = checked(location, url);
    }
  }

  async function claim(): Promise<{ id: string; file_url: string }[]> {
    const now = new Date(clock.now()).toISOString();
    const lease = new Date(clock.now() + LEASE_MS).toISOString();
    return queryRows<{ id: string; file_url: string }>(
      db,
      sql`
      update tasks set archive_next_at = ${lease}::timestamptz
      where id in (
        select id from tasks where archive_status = 'pending' and archive_next_at <= ${now}::timestamptz
        order by archive_next_at limit 10 for update skip locked)
      returning id, file_url`,
    );
  }

  async function download(
    id: string,
    url: string,
  ): Promise<{ contentType: string; bytes: number }> {
    const response = await fetchAllowed(url);
    if (!response.ok || !response.body) throw new ArchiveError(`HTTP ${response.status}`);
    const contentType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (!contentType.startsWith("audio/")) throw new ArchiveError(`not audio: "${contentType}"`);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > maxBytes) throw new ArchiveError(`larger than ${maxBytes} bytes`);
    await mkdir(options.dir, { recursive: true });
    const partial = join(options.dir, `${id}.part`);
    let bytes = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(
          bytes > maxBytes ? new ArchiveError(`larger than ${maxBytes} bytes`) : null,
          chunk,
        );
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
        cap,
        createWriteStream(partial),
      );
      await rename(partial, join(options.dir, id));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { contentType, bytes };
  }

  async function archiveOne(task: { id: string; file_url: string }): Promise<void> {
    try {
      const { contentType, bytes } = await download(task.id, task.file_url);
      await runtime.update(task.id, "worker", (row, now) => ({
        ...row,
        archiveStatus: "archived",
        archivePath: task.id,
        archiveContentType: contentType,
        archiveBytes: bytes,
        archiveNextAt: null,
        updatedAt: now,
      }));
    } catch (error) {
      const refused = error instanceof RefusedUrlError;
      // A refusal is worth a warning: the platform (or a leaked webhook secret) named a foreign host.
      logger[refused ? "warn" : "info"](
        { taskId: task.id, err: errorMessage(error) },
        "archiving a result failed",
      );
      await runtime.update(task.id, "worker", (row, now) => {
        const attempts = row.archiveAttempts + 1;
        const expired = row.fileExpiresAt !== null && row.fileExpiresAt.getTime() <= now.getTime();
        if (refused || attempts >= maxAttempts || expired) {
          return {
            ...row,
            archiveStatus: "failed",
            archiveAttempts: attempts,
            archiveNextAt: null,
          };
        }
        return {
          ...row,
          archiveAttempts: attempts,
          archiveNextAt: new Date(now.getTime() + 30_000 * 2 ** attempts),
        };
      });
    }
  }

  return {
    /** Where archived files live (the audio route reads them). */
    dir: options.dir,
    ...periodicRounds({
      run: async () => {
        const claimed = await claim();
        for (const task of claimed) await archiveOne(task);
        return claimed.length;
      },
      fallback: 0,
      intervalMs: options.intervalMs ?? 5_000,
      logger,
      what: "archive round",
    }),
  };
}

export type Archiver = ReturnType<typeof createArchiver>;
