import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { createMiddleware } from "hono/factory";
import { weightedEntries } from "../lib/weighted-header.ts";

/**
 * The text the extension and the share page read: JSON (a task list grows by every task in it,
 * and shrinks several times over), HTML, scripts and styles. Never audio (already compressed, and answered with
 * Range), never the event stream (`text/event-stream` is long-lived and sent frame by frame).
 */
const COMPRESSIBLE =
  /^(?:application\/(?:[\w.+-]*\+)?json|text\/(?:html|css|javascript|plain)|application\/javascript|image\/svg\+xml)(?:[;\s]|$)/i;
/** Below this a compressed body saves less than its headers cost. */
const MIN_BYTES = 1_024;
/** Bodies are compressed in memory: anything this large is not an API answer of ours. */
const MAX_BYTES = 8 << 20;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = "br" | "gzip";

/** The coding the client accepts that we prefer (br, then gzip); q=0 refuses one. */
export function chooseEncoding(header: string | undefined): Encoding | null {
  const q = new Map(weightedEntries(header).map(({ value, q }) => [value, q]));
  const accepts = (coding: Encoding) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  if (accepts("br")) return "br";
  if (accepts("gzip")) return "gzip";
  return null;
}

function compressBody(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  // Brotli quality 5: about gzip's speed and smaller on JSON; the default 11 is for static files.
  return encoding === "br"
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipAsync(body, { level: 6 });
}

/**
 * Answers compressible bodies with `Content-Encoding: br` or `gzip` when the request accepts it
 * (Vary: Accept-Encoding either way). Skipped for HEAD, partial content (206: a Range answer
 * must stay byte-exact), bodies already encoded, `Cache-Control: no-transform` (the event
 * stream) and small bodies.
 */
export function compression() {
  return createMiddleware(async function compressionMiddleware(c, next) {
    await next();
    const res = c.res;
    const type = res.headers.get("content-type") ?? "";
    if (
      c.req.method === "HEAD" ||
      res.status !== 200 ||
      !res.body ||
      !COMPRESSIBLE.test(type) ||
      res.headers.has("content-encoding") ||
      /no-transform/i.test(res.headers.get("cache-control") ?? "")
    )
      return;
    const length = Number(res.headers.get("content-length") ?? Number.NaN);
    if (length > MAX_BYTES) return;
    c.header("Vary", "Accept-Encoding", { append: true });
    const encoding = chooseEncoding(c.req.header("accept-encoding"));
    if (!encoding || length < MIN_BYTES) return;
    // `c.res` again: setting a header on a finished response made a new one, and its headers
    // (with the Vary just set) are the ones to keep; the old `res` lost Vary on every answer.
    const varied = c.res;
    const body = new Uint8Array(await varied.arrayBuffer());
    const headers = new Headers(varied.headers);
    // Cleared first: assigning over a response copies its headers (Content-Length) onto the new one.
    c.res = undefined;
    if (body.byteLength < MIN_BYTES || body.byteLength > MAX_BYTES) {
      c.res = new Response(body, { status: res.status, headers });
      return;
    }
    const packed = await compressBody(body, encoding);
    headers.set("Content-Encoding", encoding);
    headers.set("Content-Length", String(packed.byteLength));
    const etag = headers.get("etag");
    if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
    c.res = new Response(new Uint8Array(packed), { status: res.status, headers });
  });
}
