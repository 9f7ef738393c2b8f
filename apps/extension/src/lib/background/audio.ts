import {
  AUDIO_CHUNK_BYTES,
  type AudioMessage,
  bytesToBase64,
  rechunk,
} from "../shared/audio-transfer.ts";
import { OvertureError, toErrorPayload } from "../shared/errors.ts";
import { linkState } from "../shared/format.ts";
import { backendUrl } from "../shared/storage.ts";
import { noCopyError } from "./archive.ts";
import type { Context } from "./context.ts";
import { send } from "./http.ts";

/** The part of a runtime Port the audio transfer uses. */
export interface AudioPort {
  postMessage(message: AudioMessage): void;
  onMessage: { addListener(callback: (message: unknown) => void): void };
  onDisconnect: { addListener(callback: () => void): void };
}

/**
 * The response carrying a result's audio: the platform link while it looks valid, else (or when
 * the platform no longer serves it: its expiry is only an estimate) the backend's archive.
 */
async function openAudio(ctx: Context, id: string): Promise<Response> {
  const snapshot = await ctx.store.read();
  const task = snapshot.tasks.find((t) => t.id === id) ?? (await ctx.call((api) => api.task(id)));
  if (task.file_url && linkState(task, ctx.deps.now()).valid) {
    try {
      return await send(ctx.deps.fetch, new Request(task.file_url));
    } catch (error) {
      if (!task.audio_url) throw error;
    }
  }
  if (task.audio_url) return ctx.call((api) => api.audio(id));
  throw noCopyError(task);
}

/** Sends bytes already in memory (from the cache) in the Port's chunk size. */
function postBytes(port: AudioPort, bytes: Uint8Array, mime: string, isClosed: () => boolean) {
  port.postMessage({ kind: "start", mime, size: bytes.byteLength });
  for (let at = 0; at < bytes.byteLength && !isClosed(); at += AUDIO_CHUNK_BYTES)
    port.postMessage({
      kind: "chunk",
      data: bytesToBase64(bytes.subarray(at, at + AUDIO_CHUNK_BYTES)),
    });
  if (!isClosed()) port.postMessage({ kind: "end" });
}

/**
 * Answers `{ id }` on an audio Port with the bytes of that task's result, in chunks: from the
 * cache when this browser fetched them before (no network at all), else fetched and then kept.
 */
export function serveAudio(ctx: Context, port: AudioPort): void {
  let closed = false;
  const isClosed = () => closed;
  port.onDisconnect.addListener(() => (closed = true));
  port.onMessage.addListener((message) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string") return;
    void (async () => {
      try {
        const backend = (await backendUrl()) ?? "";
        const cached = await ctx.audioCache.get(backend, id).catch(() => null);
        if (cached) {
          postBytes(port, cached.bytes, cached.mime, isClosed);
          return;
        }
        const response = await openAudio(ctx, id);
        const mime = response.headers.get("Content-Type") ?? "audio/wav";
        const size = Number(response.headers.get("Content-Length")) || null;
        port.postMessage({ kind: "start", mime, size });
        if (!response.body)
          throw new OvertureError("unexpected", "The audio response had no body.");
        const parts: Uint8Array<ArrayBuffer>[] = [];
        for await (const chunk of rechunk(response.body)) {
          parts.push(chunk);
          if (!closed) port.postMessage({ kind: "chunk", data: bytesToBase64(chunk) });
        }
        if (!closed) port.postMessage({ kind: "end" });
        // Kept even when the view closed meanwhile: the bytes are here, the next play is free.
        await ctx.audioCache.put(backend, id, new Blob(parts, { type: mime })).catch(() => false);
      } catch (error) {
        if (!closed) port.postMessage({ kind: "error", ...toErrorPayload(error) });
      }
    })();
  });
}
