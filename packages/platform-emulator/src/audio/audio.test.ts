import { describe, expect, it } from "vitest";
import { SAMPLE_RATE, synthesizeMelody } from "./melody.ts";
import { encodeWav } from "./wav.ts";

describe("audio synthesis", () => {
  it("encodes a canonical 44-byte RIFF/WAVE header for 16-bit mono PCM", () => {
    const wav = encodeWav(new Float32Array([0, 1, -1]), 8_000);
    const view = new DataView(wav.buffer);
    expect(String.fromCharCode(...wav.subarray(0, 4))).toBe("RIFF");
    expect(view.getUint32(4, true)).toBe(36 + 6);
    expect(String.fromCharCode(...wav.subarray(8, 16))).toBe("WAVEfmt ");
    expect(view.getUint32(28, true)).toBe(16_000);
    expect(view.getInt16(46, true)).toBe(32_767);
    expect(view.getInt16(48, true)).toBe(-32_767);
  });

  it("clips samples outside -1..1", () => {
    const view = new DataView(encodeWav(new Float32Array([3]), 8_000).buffer);
    expect(view.getInt16(44, true)).toBe(32_767);
  });

  it("makes exactly seconds × sample rate samples that stay within -1..1 and are not silent", () => {
    const samples = synthesizeMelody("lofi beats", 2);
    expect(samples.length).toBe(2 * SAMPLE_RATE);
    let peak = 0;
    for (const s of samples) peak = Math.max(peak, Math.abs(s));
    expect(peak).toBeGreaterThan(0.05);
    expect(peak).toBeLessThanOrEqual(1);
  });

  it("is deterministic per prompt", () => {
    expect(synthesizeMelody("a", 1)).toEqual(synthesizeMelody("a", 1));
    expect(synthesizeMelody("a", 1)).not.toEqual(synthesizeMelody("b", 1));
  });
});
