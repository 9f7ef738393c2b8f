import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { ApiError } from "../../lib/errors.ts";
import type { TaskRow } from "../../db/schema/index.ts";
import { NOT_ARCHIVED } from "../../schemas/error-codes.ts";

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (one range; RFC 9110 §14.1.2). Undefined → whole file. */
function parseRange(
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
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  }
  return start > end || start >= size ? "unsatisfiable" : { start, end };
}

/** Streams an archived result; supports a single byte range so an audio element can seek. */
export async function serveArchivedAudio(
  dir: string,
  row: TaskRow,
  rangeHeader: string | undefined,
): Promise<Response> {
  const path = join(dir, basename(row.archivePath ?? ""));
  const size = await stat(path).then(
    (s) => s.size,
    () => {
      throw new ApiError(404, NOT_ARCHIVED, "The archived file is missing on this server.");
    },
  );
  const headers = new Headers({
    "Content-Type": row.archiveContentType ?? "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Cache-Control": "private, max-age=3600",
  });
  const range = parseRange(rangeHeader, size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  headers.set("Content-Length", String(end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const body =
    size === 0
      ? null
      : (Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>);
  return new Response(body, { status: range ? 206 : 200, headers });
}
