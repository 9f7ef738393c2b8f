/** A PCM WAV layout: 16-bit little-endian samples. */
export interface AudioFormat {
  sampleRate: number;
  channels: 1 | 2;
}

/**
 * `compact`: 22.05 kHz mono (small downloads for tests and demos). `studio`: 48 kHz stereo, what
 * upstream ACE-Step writes, so a 240 s track is about 46 MB like a real result.
 */
export const AUDIO_FORMATS = {
  compact: { sampleRate: 22_050, channels: 1 },
  studio: { sampleRate: 48_000, channels: 2 },
} as const satisfies Record<string, AudioFormat>;

export type AudioFormatName = keyof typeof AUDIO_FORMATS;

/** Bytes of a whole WAV file of `frames` sample frames (44-byte header + PCM). */
export function wavSize(frames: number, format: AudioFormat): number {
  return 44 + frames * format.channels * 2;
}
