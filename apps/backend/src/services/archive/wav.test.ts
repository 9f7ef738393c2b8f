import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPeakBuilder, PEAK_PIXELS } from "./peaks.ts";
import { decodeFrames, readWavLayout, type WavLayout } from "./wav.ts";

/** A RIFF/WAVE file: `fmt ` (code, channels, rate, bits), optional chunks, then `data`. */
function wav(options: {
  code?: number;
  channels?: number;
  rate?: number;
  bits?: number;
  data: Buffer;
  dataSize?: number;
  before?: Buffer[];
  extensibleCode?: number;
}): Buffer {
  const { channels = 1, rate = 8000, bits = 16 } = options;
  const extensible = options.extensibleCode !== undefined;
  const fmt = Buffer.alloc(extensible ? 40 : 16);
  fmt.writeUInt16LE(extensible ? 0xfffe : (options.code ?? 1), 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 8);
  fmt.writeUInt16LE((channels * bits) / 8, 12);
  fmt.writeUInt16LE(bits, 14);
  if (extensible) fmt.writeUInt16LE(options.extensibleCode ?? 1, 24);
  const chunk = (id: string, body: Buffer, size = body.length) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, "latin1");
    head.writeUInt32LE(size, 4);
    return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const body = Buffer.concat([
    Buffer.from("WAVE"),
    chunk("fmt ", fmt),
    ...(options.before ?? []).map((b) => chunk("LIST", b)),
    chunk("data", options.data, options.dataSize),
  ]);
  return Buffer.concat([chunk("RIFF", Buffer.alloc(0), body.length).subarray(0, 8), body]);
}

describe("reading WAV files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "overture-wav-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  let n = 0;
  async function layoutOf(bytes: Buffer): Promise<WavLayout | undefined> {
    const path = join(dir, `${n++}.wav`);
    await writeFile(path, bytes);
    const handle = await open(path, "r");
    try {
      return await readWavLayout(handle, bytes.length);
    } finally {
      await handle.close();
    }
  }

  async function decodable(bytes: Buffer): Promise<WavLayout> {
    const layout = await layoutOf(bytes);
    if (!layout) throw new Error("expected a readable WAV");
    return layout;
  }

  const pcm16 = Buffer.from(new Int16Array([0, 16_384, -16_384, 32_767]).buffer);

  it("reads 16-bit PCM and decodes its samples to [-1, 1]", async () => {
    const layout = await layoutOf(wav({ data: pcm16 }));
    expect(layout).toEqual({
      encoding: 1,
      channels: 1,
      sampleRate: 8000,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 8,
    });
    const [samples] = decodeFrames(pcm16, await decodable(wav({ data: pcm16 })));
    expect(Array.from(samples ?? [])).toEqual([0, 0.5, -0.5, 32_767 / 32_768]);
  });

  it("skips chunks before `data`, odd-sized ones included", async () => {
    const layout = await layoutOf(
      wav({ data: pcm16, before: [Buffer.alloc(3), Buffer.alloc(10)] }),
    );
    expect(layout?.dataOffset).toBe(44 + 12 + 18);
  });

  it("reads 24-bit and float samples, and the format inside WAVE_FORMAT_EXTENSIBLE", async () => {
    const pcm24 = Buffer.from([0, 0, 0x40, 0, 0, 0xc0]);
    const layout24 = await decodable(wav({ bits: 24, data: pcm24 }));
    expect(Array.from(decodeFrames(pcm24, layout24)[0] ?? [])).toEqual([0.5, -0.5]);
    const float = Buffer.from(new Float32Array([0.25, -1]).buffer);
    const layoutF = await decodable(wav({ bits: 32, extensibleCode: 3, channels: 2, data: float }));
    expect(layoutF).toMatchObject({ encoding: 3, channels: 2, bitsPerSample: 32 });
    const [left, right] = decodeFrames(float, layoutF);
    expect([left?.[0], right?.[0]]).toEqual([0.25, -1]);
  });

  it("clamps a streamed WAV's data size (0 or too large) to the file, in whole frames", async () => {
    // 9 bytes of 16-bit samples, without the pad byte: 4 whole frames.
    const cut = (dataSize: number) => wav({ data: Buffer.alloc(9), dataSize }).subarray(0, -1);
    expect((await layoutOf(cut(0)))?.dataBytes).toBe(8);
    expect((await layoutOf(cut(0xffffffff)))?.dataBytes).toBe(8);
  });

  it("refuses what it cannot decode: another format, compressed WAV, no fmt, a cut header", async () => {
    expect(await layoutOf(Buffer.from("ID3\u0003 not a wave file at all"))).toBeUndefined();
    expect(await layoutOf(wav({ code: 2, bits: 4, data: pcm16 }))).toBeUndefined();
    expect(await layoutOf(wav({ bits: 12, data: pcm16 }))).toBeUndefined();
    expect(await layoutOf(wav({ channels: 0, data: pcm16 }))).toBeUndefined();
    expect(await layoutOf(wav({ data: pcm16 }).subarray(0, 30))).toBeUndefined();
  });
});

describe("building a waveform", () => {
  it("keeps each pixel's extremes across channels, in at most PEAK_PIXELS pairs", () => {
    const peaks = createPeakBuilder();
    const frames = 256 * 3000;
    const left = new Float32Array(frames);
    const right = new Float32Array(frames);
    left[5] = 1;
    right[frames - 1] = -1;
    // Fed in uneven blocks, as the file is read.
    for (let at = 0; at < frames; at += 10_007)
      peaks.add([left.subarray(at, at + 10_007), right.subarray(at, at + 10_007)]);
    const { samplesPerPixel, data } = peaks.finish();
    expect(samplesPerPixel).toBe(256 * 3);
    expect(data.length).toBe(2 * PEAK_PIXELS);
    expect([data[0], data[1]]).toEqual([0, 127]);
    expect([data.at(-2), data.at(-1)]).toEqual([-128, 0]);
    expect(data.slice(2, -2).every((v) => v === 0)).toBe(true);
  });

  it("gives a short sound one pixel per 256 frames, the last one partial", () => {
    const peaks = createPeakBuilder();
    peaks.add([new Float32Array(300).fill(0.5)]);
    expect(peaks.finish()).toEqual({ samplesPerPixel: 256, data: new Int8Array([64, 64, 64, 64]) });
  });
});
