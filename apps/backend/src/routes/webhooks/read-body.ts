/**
 * Reads a request body's bytes, refusing more than `maxBytes`: the declared Content-Length is
 * checked first, and the bytes are counted while reading (a chunked or lying sender is cut off).
 * Returns undefined when the limit is exceeded. Bytes, not text: the signature covers the bytes
 * as received (spec 4.9 step 3), and decoding first would drop a byte-order mark or replace
 * invalid UTF-8 before the check.
 */
export async function readLimitedBytes(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const header = request.headers.get("content-length");
  const declared = Number(header ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (header !== null && Number.isInteger(declared) && declared >= 0) {
    // A declared length within the limit: Node's HTTP parser never hands this request more bytes
    // than that, so read it in one go (@hono/node-server reads it straight from the socket; touching
    // `request.body` would build a Web stream and a full Request, several times the cost of a
    // small webhook). The count below still guards senders that are not Node's parser.
    const bytes = await request.arrayBuffer();
    return bytes.byteLength > maxBytes ? undefined : new Uint8Array(bytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
