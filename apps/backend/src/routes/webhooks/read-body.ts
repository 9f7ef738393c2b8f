/**
 * Reads a request body as text, refusing more than `maxBytes`: the declared Content-Length is
 * checked first, and the bytes are counted while reading (a chunked or lying sender is cut off).
 * Returns undefined when the limit is exceeded.
 */
export async function readLimitedText(
  request: Request,
  maxBytes: number,
): Promise<string | undefined> {
  const header = request.headers.get("content-length");
  const declared = Number(header ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (header !== null && Number.isInteger(declared) && declared >= 0) {
    // A declared length within the limit: Node's HTTP parser never hands this request more bytes
    // than that, so read it in one go (@hono/node-server reads it straight from the socket; touching
    // `request.body` would build a Web stream and a full Request, several times the cost of a
    // small webhook). The count below still guards senders that are not Node's parser.
    const bytes = await request.arrayBuffer();
    return bytes.byteLength > maxBytes ? undefined : new TextDecoder().decode(bytes);
  }
  if (!request.body) return "";
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
  return new TextDecoder().decode(body);
}
