/**
 * Result audio travels from the background to a view over a runtime Port in base64 chunks:
 * extension messages are JSON, and one message per chunk keeps each small whatever the length of
 * the track. The view rebuilds the bytes for `<audio>` (a blob URL) and for the waveform.
 */
export const AUDIO_PORT = "overture/audio";
/** Raw bytes per chunk (base64 makes each message about a third larger). */
export const AUDIO_CHUNK_BYTES = 512 * 1024;

export type AudioMessage =
  | { kind: "start"; mime: string; size: number | null }
  | { kind: "chunk"; data: string }
  | { kind: "end" }
  | { kind: "error"; code: string; message: string };

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step)
    binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Cuts a byte stream into chunks of `size` bytes (the last may be shorter). */
export async function* rechunk(
  stream: ReadableStream<Uint8Array>,
  size = AUDIO_CHUNK_BYTES,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  let pending = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (value) {
      const joined = new Uint8Array(pending.length + value.length);
      joined.set(pending);
      joined.set(value, pending.length);
      pending = joined;
      while (pending.length >= size) {
        yield pending.slice(0, size);
        pending = pending.slice(size);
      }
    }
    if (done) break;
  }
  if (pending.length > 0) yield pending;
}
