import { describe, expect, it } from "vitest";
import { readLimitedBytes } from "./read-body.ts";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://x/webhooks/platform", {
    method: "POST",
    body,
    headers,
    duplex: "half",
  } as RequestInit);

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

describe("readLimitedBytes", () => {
  it("returns the body up to the limit, byte for byte", async () => {
    expect(text(await readLimitedBytes(post('{"a":"é"}'), 10))).toBe('{"a":"é"}');
  });

  it("keeps a leading byte-order mark and bytes that are not UTF-8", async () => {
    const raw = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d]);
    expect(await readLimitedBytes(post(raw), 10)).toEqual(raw);
    expect(await readLimitedBytes(post(new Blob([raw]).stream()), 10)).toEqual(raw);
  });

  it("refuses a declared Content-Length over the limit without reading", async () => {
    expect(await readLimitedBytes(post("short", { "content-length": "11" }), 10)).toBeUndefined();
  });

  it("refuses a streamed body once the bytes read pass the limit", async () => {
    expect(await readLimitedBytes(post(streamOf(["123456", "789012"])), 10)).toBeUndefined();
  });

  it("joins a body split across chunks", async () => {
    expect(text(await readLimitedBytes(post(streamOf(["12345", "67890"])), 10))).toBe("1234567890");
  });
});
