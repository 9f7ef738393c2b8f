import { Hono } from "hono";
import { wavSize } from "../audio/format.ts";
import { synthesizePhrase } from "../audio/melody.ts";
import { parseRange } from "../audio/range.ts";
import { wavChunks, type Track } from "../audio/wav.ts";
import type { EmulatorContext } from "../context.ts";
import type { FileRecord } from "../state/types.ts";
import { jsonError } from "../util/http.ts";

/** Phrases kept for the next downloads (each 7–12 s of samples, at most ~1.2 MB). */
const PHRASE_CACHE = 8;

/**
 * Result files (`output.file_url`, spec 2.6, 8). The id is 24 random bytes, so the URL is the
 * capability, like a signed CDN link. The WAV is streamed from the prompt's looped phrase, so a
 * 240 s download holds one 64 KiB chunk and one phrase in memory, and a single `Range` is served
 * with 206 like object storage does. After `fileTtlMs` on the emulator clock the link answers
 * 410 Gone; an id that never existed answers 404. Signed links (live profile) answer as object
 * storage does: 403 with an XML error for a missing or altered signature and for an expired link.
 */
export function fileRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();
  const phrases = new Map<string, Int16Array>();
  const track = (file: FileRecord): Track => {
    const key = `${file.sampleRate}\n${file.prompt}`;
    const phrase = phrases.get(key) ?? synthesizePhrase(file.prompt, file.sampleRate);
    phrases.delete(key); // re-insert as the most recently used
    phrases.set(key, phrase);
    if (phrases.size > PHRASE_CACHE) phrases.delete(phrases.keys().next().value ?? "");
    const format = { sampleRate: file.sampleRate, channels: file.channels };
    return { phrase, frames: Math.round(file.seconds * file.sampleRate), format };
  };

  app.get("/files/:name", (c) => {
    const id = c.req.param("name").replace(/\.wav$/, "");
    const file = ctx.state.files.get(id);
    if (!file) return jsonError(404, "file_not_found", "no such file");
    const signed = ctx.options.shape.signedFileUrls;
    if (!ctx.links.signatureValid(file, new URL(c.req.url).searchParams))
      return storageError("SignatureDoesNotMatch", "The request signature does not match.");
    if (file.expiresAt <= ctx.clock.now())
      return signed
        ? storageError("AccessDenied", "Request has expired")
        : jsonError(410, "file_expired", "the download link has expired");

    const t = track(file);
    const size = wavSize(t.frames, t.format);
    const etag = `"${file.id}-${file.sampleRate}-${file.channels}-${t.frames}"`;
    const ifRange = c.req.header("If-Range");
    const range =
      ifRange === undefined || ifRange === etag
        ? parseRange(c.req.header("Range"), size)
        : undefined;
    const headers: Record<string, string> = {
      "Content-Type": "audio/wav",
      "Accept-Ranges": "bytes",
      ETag: etag,
      "Content-Disposition": `inline; filename="${file.taskId}.wav"`,
      "Cache-Control": "private, max-age=3600",
    };
    if (range === "unsatisfiable")
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    const { start, end } = range ?? { start: 0, end: size - 1 };
    headers["Content-Length"] = String(end - start + 1);
    if (range) headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
    return new Response(streamOf(wavChunks(t, start, end + 1)), {
      status: range ? 206 : 200,
      headers,
    });
  });
  return app;
}

/** A pull stream: the next chunk is computed only when the socket has taken the last one. */
function streamOf(chunks: Generator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel() {
        chunks.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

function storageError(code: string, message: string): Response {
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    { status: 403, headers: { "Content-Type": "application/xml" } },
  );
}
