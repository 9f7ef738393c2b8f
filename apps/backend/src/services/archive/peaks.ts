/** Frames folded into one (min, max) pair while reading; the final pairs merge these. */
const BASE_FRAMES = 256;
/** Pairs a waveform has at most: 2 KB of data, enough for a player a few hundred pixels wide. */
export const PEAK_PIXELS = 1000;

export interface Peaks {
  samplesPerPixel: number;
  /** Signed 8-bit (min, max) per pixel, every channel mixed. */
  data: Int8Array;
}

/**
 * Builds a waveform from decoded blocks without knowing the length in advance: (min, max) per
 * 256 frames as the samples go by (≈ 45,000 pairs for a 240 s track at 48 kHz), merged into at
 * most {@link PEAK_PIXELS} pairs at the end.
 */
export function createPeakBuilder() {
  const mins: number[] = [];
  const maxs: number[] = [];
  let fill = 0;
  let low = Infinity;
  let high = -Infinity;

  return {
    add(channels: readonly Float32Array[]): void {
      const frames = channels[0]?.length ?? 0;
      for (let f = 0; f < frames; f += 1) {
        for (const channel of channels) {
          const v = channel[f] ?? 0;
          if (v < low) low = v;
          if (v > high) high = v;
        }
        fill += 1;
        if (fill === BASE_FRAMES) {
          mins.push(low);
          maxs.push(high);
          fill = 0;
          low = Infinity;
          high = -Infinity;
        }
      }
    },
    finish(): Peaks {
      if (fill > 0) {
        mins.push(low);
        maxs.push(high);
      }
      const perPixel = Math.max(1, Math.ceil(mins.length / PEAK_PIXELS));
      const pixels = Math.ceil(mins.length / perPixel);
      const data = new Int8Array(pixels * 2);
      for (let p = 0; p < pixels; p += 1) {
        let a = Infinity;
        let b = -Infinity;
        for (let i = p * perPixel; i < Math.min(mins.length, (p + 1) * perPixel); i += 1) {
          a = Math.min(a, mins[i] ?? 0);
          b = Math.max(b, maxs[i] ?? 0);
        }
        data[2 * p] = toInt8(a);
        data[2 * p + 1] = toInt8(b);
      }
      return { samplesPerPixel: perPixel * BASE_FRAMES, data };
    },
  };
}

const toInt8 = (v: number) => Math.max(-128, Math.min(127, Math.round(v * 128)));
