import { hash32, seededRandom } from "../util/random.ts";

export const SAMPLE_RATE = 22_050;

const MAJOR_PENTATONIC = [0, 2, 4, 7, 9];
const MINOR_PENTATONIC = [0, 3, 5, 7, 10];

/**
 * A short melody derived from the prompt: the prompt's hash picks tempo, key, scale and a random
 * walk over two octaves, so the same prompt always gives the same audio. A plucked tone (sine with
 * two harmonics and an attack/decay/release envelope) over a quiet root drone per bar.
 */
export function synthesizeMelody(prompt: string, seconds: number): Float32Array {
  const random = seededRandom(hash32(prompt));
  const bpm = 84 + Math.floor(random() * 57);
  const root = 57 + Math.floor(random() * 8); // A3..E4
  const scale = random() < 0.5 ? MAJOR_PENTATONIC : MINOR_PENTATONIC;
  const beat = 60 / bpm;
  const total = Math.round(seconds * SAMPLE_RATE);
  const out = new Float32Array(total);

  let degree = 5;
  for (let t = 0; t < seconds;) {
    const length = beat * (random() < 0.3 ? 0.5 : random() < 0.85 ? 1 : 2);
    degree = Math.max(0, Math.min(9, degree + Math.floor(random() * 5) - 2));
    const octave = Math.floor(degree / scale.length);
    const midi = root + 12 * octave + (scale[degree % scale.length] ?? 0);
    addNote(out, t, Math.min(length, seconds - t), midiToHz(midi), 0.32);
    t += length;
  }
  const bar = beat * 4;
  for (let t = 0; t < seconds; t += bar)
    addNote(out, t, Math.min(bar, seconds - t), midiToHz(root - 12), 0.12);
  return out;
}

function addNote(out: Float32Array, start: number, length: number, hz: number, gain: number): void {
  const from = Math.round(start * SAMPLE_RATE);
  const count = Math.round(length * SAMPLE_RATE);
  const attack = 0.01 * SAMPLE_RATE;
  const release = Math.min(0.08 * SAMPLE_RATE, count / 3);
  const w = (2 * Math.PI * hz) / SAMPLE_RATE;
  for (let i = 0; i < count && from + i < out.length; i++) {
    const decay = Math.exp(-i / (0.6 * SAMPLE_RATE));
    const env =
      Math.min(1, i / attack) * Math.min(1, (count - i) / release) * (0.35 + 0.65 * decay);
    const tone = Math.sin(w * i) + 0.3 * Math.sin(2 * w * i) + 0.12 * Math.sin(3 * w * i);
    out[from + i] = (out[from + i] ?? 0) + gain * env * tone * 0.7;
  }
}

function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}
