import type { ArchivePeaksRow } from "../../db/schema/index.ts";
import type { PeaksJson } from "../../schemas/archive.ts";

/** Stored peaks (signed bytes) as the audiowaveform JSON the API answers. */
export function toPeaksJson(row: ArchivePeaksRow): PeaksJson {
  const data = new Int8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  return {
    version: 2,
    channels: 1,
    sample_rate: row.sampleRate,
    samples_per_pixel: row.samplesPerPixel,
    bits: 8,
    length: data.length / 2,
    duration_seconds: row.frames / row.sampleRate,
    data: Array.from(data),
  };
}
