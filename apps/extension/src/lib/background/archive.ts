import { barsFromPeaks, type Waveform } from "../shared/peaks.ts";
import { backendUrl } from "../shared/storage.ts";
import { OvertureError } from "../shared/errors.ts";
import type { AudioFormat, MediaLink, Task } from "../shared/types.ts";
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

/**
 * `url` on the address the extension reaches the backend at. The backend builds media links
 * from its PUBLIC_URL, which may be another name of the same server (a LAN address, a proxy, a
 * port mapping): the extension's own address is the one it knows works and that its host
 * permission covers. The path and token stay as issued.
 */
export function onBackend(url: string, backend: string): string {
  const link = new URL(url);
  if (!backend) return link.href;
  const base = new URL(backend);
  link.protocol = base.protocol;
  link.host = base.host;
  return link.href;
}

/** The start of the media-link memo's keys of one task (one key per format follows it). */
export const mediaLinkKey = (backend: string, taskId: string) => `${backend} ${taskId} `;

/** A link the `<audio>` element streams a task's archived audio from (HTTP Range, no session). */
export async function mediaLinkOf(
  ctx: Context,
  taskId: string,
  format: AudioFormat,
): Promise<MediaLink> {
  const backend = (await backendUrl()) ?? "";
  return ctx.mediaLinks.get(
    `${mediaLinkKey(backend, taskId)}${format}`,
    ctx.deps.now(),
    async () => {
      const link = await ctx.call((api) => api.mediaLink(taskId, format));
      return { ...link, url: onBackend(link.url, backend) };
    },
  );
}

/**
 * Why a result the platform no longer serves has no copy either: "expired" would send the person
 * to wait for an archive that will not come while their archive space is full.
 */
export function noCopyError(task: Task): OvertureError {
  if (task.archive?.status === "failed" && task.archive.error === "archive_quota_exceeded")
    return new OvertureError(
      "archive_quota_exceeded",
      "The result link has expired and the archive quota refused a copy.",
    );
  return new OvertureError("link_expired", "The result link has expired and no copy was archived.");
}
