import { describe, expect, it } from "vitest";
import { AUDIO_FORMATS, wavSize } from "./format.ts";
import { synthesizePhrase } from "./melody.ts";
import { wavChunks, wavHeader, type Track } from "./wav.ts";

const concat = (chunks: Iterable<Uint8Array>) => Buffer.concat([...chunks]);

function track(seconds: number, format: Track["format"] = AUDIO_FORMATS.compact): Track {
  const phrase = synthesizePhrase("lofi beats", format.sampleRate);
  return { phrase, frames: Math.round(seconds * format.sampleRate), format };
}

describe("audio synthesis", () => {
  it("writes a canonical 44-byte RIFF/WAVE header for 16-bit PCM", () => {
    const view = new DataView(wavHeader(3, AUDIO_FORMATS.studio).buffer);
    const text = (o: number, n: number) =>
      String.fromCharCode(...new Uint8Array(view.buffer, o, n));
    expect(text(0, 4)).toBe("RIFF");
    expect(view.getUint32(4, true)).toBe(36 + 12);
    expect(text(8, 8)).toBe("WAVEfmt ");
    expect(view.getUint16(22, true)).toBe(2);
    expect(view.getUint32(24, true)).toBe(48_000);
    expect(view.getUint32(28, true)).toBe(192_000);
    expect(view.getUint16(32, true)).toBe(4);
    expect(text(36, 4)).toBe("data");
    expect(view.getUint32(40, true)).toBe(12);
  });

  it("the phrase is a few seconds of audible 16-bit samples, the same for the same prompt", () => {
    const phrase = synthesizePhrase("lofi beats", 22_050);
    expect(phrase.length / 22_050).toBeGreaterThan(6);
    expect(phrase.length / 22_050).toBeLessThan(12);
    expect(phrase.reduce((peak, s) => Math.max(peak, Math.abs(s)), 0)).toBeGreaterThan(1_600);
    expect(synthesizePhrase("lofi beats", 22_050)).toEqual(phrase);
    expect(synthesizePhrase("other", 22_050)).not.toEqual(phrase);
  });

  it("a track is exactly frames × channels × 2 bytes of PCM after the header", () => {
    const t = track(2, AUDIO_FORMATS.studio);
    const bytes = concat(wavChunks(t, 0, wavSize(t.frames, t.format)));
    expect(bytes.length).toBe(44 + 2 * 48_000 * 4);
    expect(bytes.subarray(0, 44)).toEqual(Buffer.from(wavHeader(t.frames, t.format)));
  });

  it("loops the phrase: a frame one phrase later has the same sample, until the fade", () => {
    const t = track(30);
    const at = (frame: number) => {
      const offset = 44 + frame * 2;
      return concat(wavChunks(t, offset, offset + 2)).readInt16LE(0);
    };
    for (const frame of [0, 1_234, 50_000])
      expect(at(frame + t.phrase.length)).toBe(t.phrase[frame]);
  });

  it("fades out over the last second, ending in silence", () => {
    const t = track(20);
    const size = wavSize(t.frames, t.format);
    expect(concat(wavChunks(t, size - 2, size)).readInt16LE(0)).toBe(0);
  });

  it("any byte range equals the same slice of the whole file (chunk and frame edges included)", () => {
    const t = track(4, AUDIO_FORMATS.studio);
    const whole = concat(wavChunks(t, 0, wavSize(t.frames, t.format)));
    for (const [a, b] of [
      [0, 1],
      [10, 47],
      [45, 46],
      [65_535, 65_541],
      [100_001, 400_003],
      [whole.length - 3, whole.length],
    ] as const)
      expect(concat(wavChunks(t, a, b))).toEqual(whole.subarray(a, b));
  });
});
