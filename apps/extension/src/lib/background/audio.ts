import { type AudioMessage, bytesToBase64, rechunk } from "../audio-transfer.ts";
import { OvertureError, toErrorPayload } from "../errors.ts";
import { linkState } from "../format.ts";
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
  throw new OvertureError("link_expired", "The result link has expired and no copy was archived.");
}

/** Answers `{ id }` on an audio Port with the bytes of that task's result, in chunks. */
export function serveAudio(ctx: Context, port: AudioPort): void {
  let closed = false;
  port.onDisconnect.addListener(() => (closed = true));
  port.onMessage.addListener((message) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string") return;
    void (async () => {
      try {
        const response = await openAudio(ctx, id);
        const size = Number(response.headers.get("Content-Length")) || null;
        port.postMessage({
          kind: "start",
          mime: response.headers.get("Content-Type") ?? "audio/wav",
          size,
        });
        if (!response.body)
          throw new OvertureError("unexpected", "The audio response had no body.");
        for await (const chunk of rechunk(response.body)) {
          if (closed) return;
          port.postMessage({ kind: "chunk", data: bytesToBase64(chunk) });
        }
        port.postMessage({ kind: "end" });
      } catch (error) {
        if (!closed) port.postMessage({ kind: "error", ...toErrorPayload(error) });
      }
    })();
  });
}
