import { describe, expect, it } from "vitest";
import { readLimitedText } from "./read-body.ts";

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

describe("readLimitedText", () => {
  it("returns the body text up to the limit, byte for byte", async () => {
    expect(await readLimitedText(post('{"a":"é"}'), 10)).toBe('{"a":"é"}');
  });

  it("refuses a declared Content-Length over the limit without reading", async () => {
    expect(await readLimitedText(post("short", { "content-length": "11" }), 10)).toBeUndefined();
  });

  it("refuses a streamed body once the bytes read pass the limit", async () => {
    expect(await readLimitedText(post(streamOf(["123456", "789012"])), 10)).toBeUndefined();
  });

  it("joins a body split across chunks", async () => {
    expect(await readLimitedText(post(streamOf(["12345", "67890"])), 10)).toBe("1234567890");
  });
});
