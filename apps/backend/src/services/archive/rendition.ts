export const RENDITION_CONTENT_TYPE = "audio/mpeg";
/** LAME's highest output rate; higher source rates are resampled down to it. */
const MAX_OUTPUT_RATE = 48_000;

/**
 * The compressed copy for listening: MP3 by LAME compiled to WebAssembly (wasm-media-encoders,
 * no system binary). Constant 128 kbit/s stereo or 64 kbit/s mono: 0.96 or 0.48 MB per minute.
 * Sources with more than two channels keep their first two.
 */
export async function createRenditionEncoder(sampleRate: number, sourceChannels: number) {
  // Loaded on first use: the encoders' module (~0.8 MB, its WebAssembly inline) is otherwise
  // compiled and held by every idle backend and main job (`pnpm bench`, item 7).
  const { createMp3Encoder } = await import("wasm-media-encoders");
  const encoder = await createMp3Encoder();
  const channels: 1 | 2 = sourceChannels >= 2 ? 2 : 1;
  encoder.configure({
    sampleRate,
    channels,
    bitrate: channels === 2 ? 128 : 64,
    ...(sampleRate > MAX_OUTPUT_RATE ? { outputSampleRate: MAX_OUTPUT_RATE } : {}),
  });
  const parts: Uint8Array[] = [];
  // The encoder owns the buffer it returns: copy before the next call.
  const keep = (bytes: Uint8Array) => {
    if (bytes.length > 0) parts.push(bytes.slice());
  };
  return {
    add(samples: readonly Float32Array[]): void {
      keep(encoder.encode(samples.slice(0, channels)));
    },
    finish(): Buffer {
      keep(encoder.finalize());
      return Buffer.concat(parts);
    },
  };
}
