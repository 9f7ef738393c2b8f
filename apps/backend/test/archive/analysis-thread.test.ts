import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyseAudio } from "../../src/services/archive/analyse.ts";
import { analyseInThread } from "../../src/services/archive/analysis-thread.ts";

const folder = mkdtempSync(join(tmpdir(), "overture-analysis-test-"));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** A 48 kHz stereo 16-bit WAV of a sine sweep, `seconds` long, written into the test folder. */
function sweep(name: string, seconds: number): { path: string; size: number } {
  const frames = 48_000 * seconds;
  const data = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i += 1) {
    const v = Math.round(Math.sin((i * i) / 4e7) * 12_000 * (i / frames));
    data.writeInt16LE(v, i * 4);
    data.writeInt16LE(-v, i * 4 + 2);
  }
  const head = Buffer.alloc(44);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(36 + data.length, 4);
  head.write("WAVEfmt ", 8, "latin1");
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(2, 22);
  head.writeUInt32LE(48_000, 24);
  head.writeUInt32LE(48_000 * 4, 28);
  head.writeUInt16LE(4, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36, "latin1");
  head.writeUInt32LE(data.length, 40);
  const path = join(folder, name);
  writeFileSync(path, Buffer.concat([head, data]));
  return { path, size: 44 + data.length };
}

const running = () => new AbortController().signal;

describe("the analysis thread", () => {
  it("answers the same peaks and MP3 rendition as analysing on the calling thread", async () => {
    const file = sweep("same.wav", 3);
    const there = await analyseInThread(file, running());
    const here = await analyseAudio(file.path, file.size);
    expect(there?.peaks).toEqual(here?.peaks);
    expect(Buffer.isBuffer(there?.rendition)).toBe(true);
    expect(there?.rendition.equals(here?.rendition ?? Buffer.alloc(0))).toBe(true);
    expect(there?.peaks.frames).toBe(3 * 48_000);
  });

  it("answers nothing for a file that is not a WAV, as the calling thread does", async () => {
    const path = join(folder, "not.wav");
    writeFileSync(path, "ID3 this is not a RIFF file at all");
    await expect(analyseInThread({ path, size: 34 }, running())).resolves.toBeUndefined();
  });

  it("rejects with the cause when the file cannot be read", async () => {
    const request = { path: join(folder, "missing.wav"), size: 1000 };
    await expect(analyseInThread(request, running())).rejects.toThrow(/ENOENT/);
  });

  it("rejects with the stop's reason when stopped before it answers, and after a stop starts nothing", async () => {
    const file = sweep("long.wav", 30);
    const stop = new AbortController();
    const analysis = analyseInThread(file, stop.signal);
    setTimeout(() => {
      stop.abort(new Error("the archiver is stopping"));
    }, 50);
    await expect(analysis).rejects.toThrow("the archiver is stopping");
    await expect(analyseInThread(file, stop.signal)).rejects.toThrow("the archiver is stopping");
  });
});
