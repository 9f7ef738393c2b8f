import { hash32, seededRandom } from "../util/random.ts";

const MAJOR_PENTATONIC = [0, 2, 4, 7, 9];
const MINOR_PENTATONIC = [0, 3, 5, 7, 10];
const BARS = 4;

/**
 * A four-bar phrase derived from the prompt, as 16-bit samples: the prompt's hash picks tempo,
 * key, scale and a random walk over two octaves, so the same prompt always gives the same audio.
 * A plucked tone (sine with two harmonics and an attack/decay/release envelope) over a quiet root
 * drone per bar. The phrase is a whole number of bars, so it loops without a seam: a track of
 * any length is this phrase repeated (7–12 s of samples, whatever the track's length).
 */
export function synthesizePhrase(prompt: string, sampleRate: number): Int16Array {
  const random = seededRandom(hash32(prompt));
  const bpm = 84 + Math.floor(random() * 57);
  const root = 57 + Math.floor(random() * 8); // A3..E4
  const scale = random() < 0.5 ? MAJOR_PENTATONIC : MINOR_PENTATONIC;
  const beat = 60 / bpm;
  const bar = beat * 4;
  const seconds = bar * BARS;
  const out = new Float32Array(Math.round(seconds * sampleRate));
  const note = (start: number, length: number, midi: number, gain: number) => {
    addNote(out, sampleRate, start, Math.min(length, seconds - start), midiToHz(midi), gain);
  };

  let degree = 5;
  for (let t = 0; t < seconds;) {
    const length = beat * (random() < 0.3 ? 0.5 : random() < 0.85 ? 1 : 2);
    degree = Math.max(0, Math.min(9, degree + Math.floor(random() * 5) - 2));
    const octave = Math.floor(degree / scale.length);
    note(t, length, root + 12 * octave + (scale[degree % scale.length] ?? 0), 0.32);
    t += length;
  }
  for (let i = 0; i < BARS; i++) note(i * bar, bar, root - 12, 0.12);
  return Int16Array.from(out, (s) => Math.round(Math.max(-1, Math.min(1, s)) * 32_767));
}

function addNote(
  out: Float32Array,
  sampleRate: number,
  start: number,
  length: number,
  hz: number,
  gain: number,
): void {
  const from = Math.round(start * sampleRate);
  const count = Math.round(length * sampleRate);
  const attack = 0.01 * sampleRate;
  const release = Math.min(0.08 * sampleRate, count / 3);
  const w = (2 * Math.PI * hz) / sampleRate;
  for (let i = 0; i < count && from + i < out.length; i++) {
    const decay = Math.exp(-i / (0.6 * sampleRate));
    const env =
      Math.min(1, i / attack) * Math.min(1, (count - i) / release) * (0.35 + 0.65 * decay);
    const tone = Math.sin(w * i) + 0.3 * Math.sin(2 * w * i) + 0.12 * Math.sin(3 * w * i);
    out[from + i] = (out[from + i] ?? 0) + gain * env * tone * 0.7;
  }
}

function midiToHz(midi: number): number {
  return 440 * 2 ** ((midi - 69) / 12);
}
