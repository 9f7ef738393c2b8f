/** One Server-Sent Events frame (HTML Living Standard, "Server-sent events"). */
export interface SseFrame {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

/**
 * The frames of an event stream, as they arrive. Comments (`: ping`) are skipped, but every
 * chunk read, pings included, calls `onChunk` (the reader's sign of life). A frame without
 * `event:` is a `message`, as EventSource names it.
 */
export async function* readFrames(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void = () => undefined,
): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = body.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) return;
    onChunk();
    // CRLF and CR end lines too; a CR at the very end may be the first half of a CRLF.
    buffer = (buffer + decoder.decode(chunk, { stream: true }))
      .replace(/\r\n/g, "\n")
      .replace(/\r(?=.)/gs, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const frame = parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (frame) yield frame;
    }
  }
}

function parse(block: string): SseFrame | undefined {
  let event = "message";
  const data: string[] = [];
  let id: string | undefined;
  let retry: number | undefined;
  let fields = 0;
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    fields += 1;
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") id = value;
    else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
  }
  if (fields === 0) return undefined;
  return {
    event,
    data: data.join("\n"),
    ...(id === undefined ? {} : { id }),
    ...(retry === undefined ? {} : { retry }),
  };
}
