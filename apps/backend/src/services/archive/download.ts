import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { isAllowedHost, type HostAllowList } from "../../lib/host-allowlist.ts";

/** Redirects followed per download, each checked against the allow-list. */
const MAX_REDIRECTS = 3;
const DOWNLOAD_TIMEOUT_MS = 120_000;

export class ArchiveError extends Error {
  override readonly name = "ArchiveError";
  /** The task's `archive.error` code when this failure ends its archiving. */
  constructor(
    message: string,
    readonly code = "download_failed",
  ) {
    super(message);
  }
}

/**
 * A URL the allow-list refuses: retrying cannot change that, so the task fails at once. Only an
 * operator can, by allowing the host: an archiver then queues it again when it starts.
 */
export class RefusedUrlError extends ArchiveError {
  constructor(message: string) {
    super(message, "url_refused");
  }
}

/** The result is larger than ARCHIVE_MAX_FILE_MB: retrying cannot help. */
export class TooLargeError extends ArchiveError {
  constructor(maxBytes: number) {
    super(`larger than ${maxBytes} bytes`, "file_too_large");
  }
}

export interface Downloaded {
  contentType: string;
  bytes: number;
}

/**
 * Downloads result files. Only the platform's origin and ARCHIVE_ALLOWED_HOSTS are fetched,
 * redirects included: whoever can sign a webhook chooses `file_url` (SECURITY.md).
 */
export function createDownloader(options: {
  fetch: typeof fetch;
  allowList: HostAllowList;
  maxBytes: number;
}) {
  const { allowList, maxBytes } = options;

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
  async function fetchAllowed(target: string, stop?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    let url = checked(target);
    for (let hop = 0; ; hop += 1) {
      const response = await options.fetch(url, { signal, redirect: "manual" });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw new ArchiveError(`more than ${MAX_REDIRECTS} redirects`);
      url = checked(location, url);
    }
  }

  return {
    /** Whether the allow-list takes `url` itself (a redirect is checked when it is followed). */
    allows(url: string): boolean {
      try {
        checked(url);
        return true;
      } catch {
        return false;
      }
    },
    /** Streams the file at `url` into `path` (capped in size, audio only); `path` may be left partial. */
    async download(
      url: string,
      path: string,
      /** Called with the announced length (0: none) before the body is read; throws to refuse. */
      admit: (declaredBytes: number) => Promise<void> = () => Promise.resolve(),
      /** Aborts the download (the archiver stopping): the body stops being read at once. */
      stop?: AbortSignal,
    ): Promise<Downloaded> {
      const response = await fetchAllowed(url, stop);
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new ArchiveError(`HTTP ${response.status}`);
      }
      const contentType = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
      if (!contentType.startsWith("audio/")) {
        await response.body.cancel();
        throw new ArchiveError(`not audio: "${contentType}"`, "not_audio");
      }
      const declared = Number(response.headers.get("content-length") ?? "0");
      if (declared > maxBytes) {
        await response.body.cancel();
        throw new TooLargeError(maxBytes);
      }
      try {
        await admit(declared);
      } catch (error) {
        await response.body.cancel();
        throw error;
      }
      let bytes = 0;
      const cap = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          bytes += chunk.length;
          callback(bytes > maxBytes ? new TooLargeError(maxBytes) : null, chunk);
        },
      });
      const source = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
      const target = createWriteStream(path);
      if (stop) await pipeline(source, cap, target, { signal: stop });
      else await pipeline(source, cap, target);
      return { contentType, bytes };
    },
  };
}
