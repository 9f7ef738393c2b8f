import { describe, expect, it } from "vitest";
import { barsFromPeaks, computePeaks } from "./peaks.ts";

describe("waveform peaks", () => {
  it("takes the largest absolute sample of each slice", () => {
    expect(computePeaks([Float32Array.from([0.1, -0.5, 0.25, 0.75])], 2)).toEqual([0.5, 0.75]);
  });

  it("takes the louder channel of a stereo track", () => {
    expect(
      computePeaks([Float32Array.from([0.1, 0.1]), Float32Array.from([-0.75, 0.2])], 1),
    ).toEqual([0.75]);
  });

  it("clips samples beyond full scale to 1", () => {
    expect(computePeaks([Float32Array.from([1.5])], 1)).toEqual([1]);
  });

  it("answers nothing for silence of zero length", () => {
    expect(computePeaks([new Float32Array(0)], 10)).toEqual([]);
  });

  it("fills every bucket when there are more buckets than samples", () => {
    expect(computePeaks([Float32Array.from([0.5, 0.25])], 4)).toHaveLength(4);
  });
});

describe("barsFromPeaks", () => {
  const peaks = (data: number[]) => ({ data, duration_seconds: 12.5 });

  it("takes the largest absolute min or max of each slice of pixels, 0–1", () => {
    // Four pixels (min, max): the loudest of each pair of pixels makes a bar.
    const waveform = barsFromPeaks(peaks([-10, 20, -64, 32, 0, 0, -128, 127]), 2);
    expect(waveform).toEqual({ bars: [0.5, 1], duration: 12.5 });
  });

  it("spreads fewer pixels than bars over the bars, and draws nothing of no data", () => {
    expect(barsFromPeaks(peaks([-64, 64]), 3).bars).toEqual([0.5, 0.5, 0.5]);
    expect(barsFromPeaks(peaks([]), 3).bars).toEqual([]);
  });
});
