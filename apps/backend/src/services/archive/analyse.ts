import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createPeakBuilder, type Peaks } from "./peaks.ts";
import { createRenditionEncoder } from "./rendition.ts";
import { decodeFrames, readWavLayout } from "./wav.ts";

export interface Analysis {
  peaks: Peaks & { sampleRate: number; channels: number; frames: number };
  /** The MP3 rendition. */
  rendition: Buffer;
}

/**
 * One pass over a downloaded WAV file: its waveform and its MP3 rendition. Undefined when the
 * file is not a WAV this reader understands (PCM 8/16/24/32-bit or 32-bit float): the original
 * is still archived, without peaks or rendition. The file is read in 64 KiB pieces, never whole.
 * The archiver runs this on a thread of its own (analysis-thread.ts).
 */
export async function analyseAudio(path: string, size: number): Promise<Analysis | undefined> {
  const handle = await open(path, "r");
  const layout = await readWavLayout(handle, size).finally(() => handle.close());
  if (!layout || layout.dataBytes === 0) return undefined;
  const frameBytes = layout.channels * (layout.bitsPerSample / 8);
  const peaks = createPeakBuilder();
  const encoder = await createRenditionEncoder(layout.sampleRate, layout.channels);
  let rest: Buffer = Buffer.alloc(0);
  const stream = createReadStream(path, {
    start: layout.dataOffset,
    end: layout.dataOffset + layout.dataBytes - 1,
  });
  for await (const piece of stream as AsyncIterable<Buffer>) {
    const bytes = rest.length > 0 ? Buffer.concat([rest, piece]) : piece;
    const whole = bytes.length - (bytes.length % frameBytes);
    rest = bytes.subarray(whole);
    const samples = decodeFrames(bytes.subarray(0, whole), layout);
    peaks.add(samples);
    encoder.add(samples);
  }
  return {
    peaks: {
      ...peaks.finish(),
      sampleRate: layout.sampleRate,
      channels: layout.channels,
      frames: layout.dataBytes / frameBytes,
    },
    rendition: encoder.finish(),
  };
}
