import { barsFromPeaks, type Waveform } from "../peaks.ts";
import { backendUrl } from "../storage.ts";
import type { AudioFormat, MediaLink } from "../types.ts";
import type { Context } from "./context.ts";

/** A task's waveform: from the cache, else from the backend (then kept). */
export async function waveformOf(ctx: Context, taskId: string): Promise<Waveform> {
  const backend = (await backendUrl()) ?? "";
  const cached = await ctx.peaks.get(backend, taskId).catch(() => null);
  if (cached) return cached;
  const waveform = barsFromPeaks(await ctx.call((api) => api.peaks(taskId)));
  await ctx.peaks.put(backend, taskId, waveform).catch(() => undefined);
  return waveform;
}

/** A link the `<audio>` element streams a task's archived audio from (HTTP Range, no session). */
export async function mediaLinkOf(
  ctx: Context,
  taskId: string,
  format: AudioFormat,
): Promise<MediaLink> {
  const backend = (await backendUrl()) ?? "";
  return ctx.mediaLinks.get(`${backend} ${taskId} ${format}`, ctx.deps.now(), () =>
    ctx.call((api) => api.mediaLink(taskId, format)),
  );
}
