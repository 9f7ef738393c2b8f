/**
 * The waveform picture's data: for each of `buckets` equal slices of the track, the largest
 * absolute sample across channels (0–1). Pure, so it is tested without Web Audio.
 */
export function computePeaks(channels: readonly Float32Array[], buckets: number): number[] {
  const length = channels[0]?.length ?? 0;
  if (length === 0 || buckets <= 0) return [];
  const peaks = new Array<number>(buckets).fill(0);
  const size = length / buckets;
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor(b * size);
    const end = Math.max(start + 1, Math.floor((b + 1) * size));
    let peak = 0;
    for (const channel of channels) {
      for (let i = start; i < end && i < length; i++) {
        const value = Math.abs(channel[i] ?? 0);
        if (value > peak) peak = value;
      }
    }
    peaks[b] = Math.min(1, peak);
  }
  return peaks;
}

/** Draws peaks as centred bars in the canvas's current colour (`color` CSS property). */
export function drawPeaks(canvas: HTMLCanvasElement, peaks: readonly number[]): void {
  const context = canvas.getContext("2d");
  if (!context) return;
  const ratio = globalThis.devicePixelRatio || 1;
  const width = canvas.clientWidth * ratio;
  const height = canvas.clientHeight * ratio;
  canvas.width = width;
  canvas.height = height;
  context.clearRect(0, 0, width, height);
  context.fillStyle = getComputedStyle(canvas).color;
  const bar = width / Math.max(1, peaks.length);
  peaks.forEach((peak, index) => {
    const h = Math.max(1, peak * height);
    context.fillRect(index * bar, (height - h) / 2, Math.max(1, bar - ratio), h);
  });
}

/** A track's waveform as the views draw it: `bars` peaks (0–1) and the length in seconds. */
export interface Waveform {
  bars: number[];
  duration: number;
}

/** Bars per waveform: enough for the widest view, small enough to keep thousands. */
export const WAVEFORM_BARS = 120;

/**
 * The backend's peaks (audiowaveform JSON, 8-bit: a min/max pair per pixel) as `bars` peaks:
 * for each equal slice of the pixels, the largest absolute value, 0–1.
 */
export function barsFromPeaks(
  peaks: { data: readonly number[]; duration_seconds: number },
  bars = WAVEFORM_BARS,
): Waveform {
  const pixels = Math.floor(peaks.data.length / 2);
  const out = new Array<number>(pixels === 0 ? 0 : bars).fill(0);
  for (let bar = 0; bar < out.length; bar++) {
    const start = Math.floor((bar * pixels) / bars);
    const end = Math.max(start + 1, Math.floor(((bar + 1) * pixels) / bars));
    let peak = 0;
    for (let i = 2 * start; i < 2 * end && i < peaks.data.length; i++)
      peak = Math.max(peak, Math.abs(peaks.data[i] ?? 0));
    out[bar] = Math.min(1, peak / 128);
  }
  return { bars: out, duration: peaks.duration_seconds };
}
