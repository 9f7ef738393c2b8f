import type { FileHandle } from "node:fs/promises";

/** Where the samples of a WAV file are and how to read them. */
export interface WavLayout {
  /** 1: integer PCM; 3: IEEE float. */
  encoding: 1 | 3;
  channels: number;
  sampleRate: number;
  bitsPerSample: 8 | 16 | 24 | 32;
  /** Byte offset and length of the `data` chunk's samples (clamped to the file). */
  dataOffset: number;
  dataBytes: number;
}

const EXTENSIBLE = 0xfffe;
/** Chunks walked before giving up on finding `data` (a WAV has a handful). */
const MAX_CHUNKS = 64;

/**
 * Reads a RIFF/WAVE file's layout by walking its chunks; undefined for anything else (another
 * format, a compressed WAV, a truncated header). A `data` size the file cannot hold (streamed
 * WAVs write 0 or 0xFFFFFFFF) is clamped to the file's end.
 */
export async function readWavLayout(
  file: FileHandle,
  size: number,
): Promise<WavLayout | undefined> {
  const head = await readAt(file, 0, 12);
  if (ascii(head, 0) !== "RIFF" || ascii(head, 8) !== "WAVE") return undefined;
  let format: Omit<WavLayout, "dataOffset" | "dataBytes"> | undefined;
  let offset = 12;
  for (let n = 0; n < MAX_CHUNKS && offset + 8 <= size; n += 1) {
    const header = await readAt(file, offset, 8);
    if (header.length < 8) return undefined;
    const id = ascii(header, 0);
    const length = header.readUInt32LE(4);
    const body = offset + 8;
    if (id === "fmt ") format = parseFormat(await readAt(file, body, Math.min(length, 40)));
    if (id === "data") {
      if (!format) return undefined;
      const available = size - body;
      const dataBytes = length === 0 || length > available ? available : length;
      const frameBytes = format.channels * (format.bitsPerSample / 8);
      return { ...format, dataOffset: body, dataBytes: dataBytes - (dataBytes % frameBytes) };
    }
    offset = body + length + (length % 2);
  }
  return undefined;
}

function parseFormat(fmt: Buffer): Omit<WavLayout, "dataOffset" | "dataBytes"> | undefined {
  if (fmt.length < 16) return undefined;
  let code = fmt.readUInt16LE(0);
  // WAVE_FORMAT_EXTENSIBLE names the real format in the first two bytes of its sub-format GUID.
  if (code === EXTENSIBLE && fmt.length >= 26) code = fmt.readUInt16LE(24);
  const channels = fmt.readUInt16LE(2);
  const sampleRate = fmt.readUInt32LE(4);
  const bits = fmt.readUInt16LE(14);
  if (channels < 1 || channels > 32 || sampleRate < 1000 || sampleRate > 384_000) return undefined;
  if (code === 1 && (bits === 8 || bits === 16 || bits === 24 || bits === 32))
    return { encoding: 1, channels, sampleRate, bitsPerSample: bits };
  if (code === 3 && bits === 32) return { encoding: 3, channels, sampleRate, bitsPerSample: 32 };
  return undefined;
}

/**
 * Whole frames of `bytes` as one Float32Array per channel, in [-1, 1]. `bytes` must hold a
 * whole number of frames.
 */
export function decodeFrames(bytes: Buffer, layout: WavLayout): Float32Array[] {
  const width = layout.bitsPerSample / 8;
  const frames = Math.floor(bytes.length / (width * layout.channels));
  const out = Array.from({ length: layout.channels }, () => new Float32Array(frames));
  const read = sampleReader(layout);
  let at = 0;
  for (let f = 0; f < frames; f += 1) {
    for (let ch = 0; ch < layout.channels; ch += 1) {
      (out[ch] as Float32Array)[f] = read(bytes, at);
      at += width;
    }
  }
  return out;
}

function sampleReader(layout: WavLayout): (bytes: Buffer, at: number) => number {
  if (layout.encoding === 3) return (b, at) => b.readFloatLE(at);
  switch (layout.bitsPerSample) {
    case 8:
      return (b, at) => ((b[at] ?? 128) - 128) / 128;
    case 16:
      return (b, at) => b.readInt16LE(at) / 32_768;
    case 24:
      return (b, at) => b.readIntLE(at, 3) / 8_388_608;
    default:
      return (b, at) => b.readInt32LE(at) / 2_147_483_648;
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

const ascii = (buffer: Buffer, at: number) => buffer.toString("latin1", at, at + 4);
