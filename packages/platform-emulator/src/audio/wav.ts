import { wavSize, type AudioFormat } from "./format.ts";

/** A track: `frames` sample frames of a looped phrase, faded out over its last second. */
export interface Track {
  phrase: Int16Array;
  frames: number;
  format: AudioFormat;
}

const CHUNK_BYTES = 64 * 1024;

/** The 44-byte RIFF/WAVE header of 16-bit PCM. */
export function wavHeader(frames: number, format: AudioFormat): Uint8Array {
  const dataBytes = wavSize(frames, format) - 44;
  const blockAlign = format.channels * 2;
  const out = new Uint8Array(44);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, format.channels, true);
  view.setUint32(24, format.sampleRate, true);
  view.setUint32(28, format.sampleRate * blockAlign, true); // byte rate
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  return out;
}

/**
 * Bytes `start` (inclusive) to `end` (exclusive) of the track's WAV file, in chunks of at most
 * 64 KiB computed on demand: memory stays at one chunk whatever the track's length, and any
 * range (HTTP Range) costs only its own bytes.
 */
export function* wavChunks(track: Track, start: number, end: number): Generator<Uint8Array> {
  const header = wavHeader(track.frames, track.format);
  for (let from = start; from < end; from += CHUNK_BYTES) {
    const to = Math.min(end, from + CHUNK_BYTES);
    const chunk = new Uint8Array(to - from);
    if (from < 44) chunk.set(header.subarray(from, Math.min(44, to)));
    if (to > 44) fillPcm(track, chunk, Math.max(from, 44) - 44, to - 44, Math.max(0, 44 - from));
    yield chunk;
  }
}

/** Writes PCM bytes `[a, b)` of the data chunk into `out` at `offset`. */
function fillPcm(track: Track, out: Uint8Array, a: number, b: number, offset: number): void {
  const { phrase, frames, format } = track;
  const blockAlign = format.channels * 2;
  const fade = Math.min(frames, format.sampleRate);
  const first = Math.floor(a / blockAlign);
  const last = Math.ceil(b / blockAlign);
  const pcm = new DataView(new ArrayBuffer((last - first) * blockAlign));
  for (let f = first; f < last; f++) {
    const gain = Math.min(1, (frames - f) / fade);
    const sample = Math.round((phrase[f % phrase.length] ?? 0) * gain);
    for (let ch = 0; ch < format.channels; ch++)
      pcm.setInt16((f - first) * blockAlign + ch * 2, sample, true);
  }
  const bytes = new Uint8Array(pcm.buffer, a - first * blockAlign, b - a);
  out.set(bytes, offset);
}
