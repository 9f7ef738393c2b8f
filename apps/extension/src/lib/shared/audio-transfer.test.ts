import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64, rechunk } from "./audio-transfer.ts";

const streamOf = (...parts: number[][]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(Uint8Array.from(part));
      controller.close();
    },
  });

describe("audio transfer", () => {
  it("round-trips every byte value through base64", () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
  });

  it("re-cuts a byte stream into chunks of the given size, the last one shorter", async () => {
    const sizes: number[] = [];
    for await (const chunk of rechunk(streamOf([1, 2, 3], [4, 5], [6, 7, 8, 9, 10]), 4))
      sizes.push(chunk.length);
    expect(sizes).toEqual([4, 4, 2]);
  });

  it("keeps the bytes in order across chunks", async () => {
    const out: number[] = [];
    for await (const chunk of rechunk(streamOf([1, 2, 3], [4, 5]), 2)) out.push(...chunk);
    expect(out).toEqual([1, 2, 3, 4, 5]);
  });
});
