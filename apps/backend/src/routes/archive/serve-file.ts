import type { ArchiveFileRow } from "../../db/schema/index.ts";
import type { FileStore } from "../../services/archive/store.ts";

/**
 * `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range; RFC 9110 §14.1.2). Undefined → the whole
 * file: no header, another unit, several ranges, or an invalid range (`bytes=5-2`: a last-pos
 * below its first-pos), which RFC 9110 §14.2 lets a server ignore: the client gets a 200 it can
 * always use, where a 416 would leave a player with nothing.
 * "unsatisfiable" (416) only for a valid range that lies past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return undefined;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return undefined;
  let start: number;
  let end: number;
  if (from === "") {
    if (Number(to) === 0) return "unsatisfiable";
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    if (to !== "" && Number(to) < start) return undefined;
    end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  }
  return start > end || start >= size ? "unsatisfiable" : { start, end };
}

export interface ServeHeaders {
  range?: string | undefined;
  "if-range"?: string | undefined;
  "if-none-match"?: string | undefined;
}

const EXTENSIONS: Record<string, string> = {
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/flac": "flac",
  "audio/ogg": "ogg",
};

/**
 * Streams a stored file with one byte range, so an audio element can seek before the whole file
 * has arrived. Files never change, so their id is a strong ETag: `If-None-Match` answers 304 and
 * `If-Range` with another tag sends the whole file. The caller checks access first, so a 304
 * is only ever given to whoever may still read the file.
 */
export function serveStoredFile(
  files: FileStore,
  file: ArchiveFileRow,
  headers: ServeHeaders,
): Response {
  const size = file.bytes;
  const etag = `"${file.id}"`;
  const extension = EXTENSIONS[file.contentType] ?? "bin";
  const out = new Headers({
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    ETag: etag,
    // `no-cache` (RFC 9111 §5.2.2.4): the browser may keep the bytes but asks before each use,
    // because access to private media can end at any time. The conditional request costs one
    // lookup and is answered 304 while the track is there and the session or link is valid,
    // 404/401/403 once it is not. A max-age kept a deleted track, or one after sign-out,
    // playing from the browser's cache (a day, before); the file id is a strong ETag, so the
    // bytes are not sent twice.
    "Cache-Control": "private, no-cache",
    "Content-Disposition": `inline; filename="${file.taskId}.${extension}"`,
  });
  if (headers["if-none-match"]?.split(",").some((tag) => tag.trim() === etag))
    return new Response(null, { status: 304, headers: out });
  const ifRange = headers["if-range"];
  const range =
    ifRange === undefined || ifRange.trim() === etag ? parseRange(headers.range, size) : undefined;
  if (range === "unsatisfiable") {
    out.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers: out });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  out.set("Content-Length", String(end - start + 1));
  if (range) out.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const body = size === 0 ? null : files.read(file, start, end);
  return new Response(body, { status: range ? 206 : 200, headers: out });
}
