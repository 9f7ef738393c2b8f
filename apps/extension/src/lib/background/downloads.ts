import { browser } from "wxt/browser";
import {
  type DownloadProgress,
  type DownloadResult,
  problemOf,
} from "../shared/download-result.ts";
import { OvertureError } from "../shared/errors.ts";
import { linkState, trackFileName } from "../shared/format.ts";
import type { AudioFormat, Task } from "../shared/types.ts";
import { backendUrl } from "../shared/storage.ts";
import { noCopyError } from "./archive.ts";
import type { Context } from "./context.ts";

/** The extension of a link's path (`.wav`, `.mp3`…), if it has one. */
function extensionOf(url: string): string | null {
  return /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? null;
}

/**
 * File name for a result in `format`: the track's name (its title, else the start of its
 * prompt) with `.mp3`, or the original's extension (the platform link's, else `.wav`).
 */
export function resultFileName(task: Task, format: AudioFormat): string {
  const extension =
    format === "mp3" ? "mp3" : ((task.file_url ? extensionOf(task.file_url) : null) ?? "wav");
  return `${trackFileName(task)}.${extension}`;
}

type DownloadOptions = Parameters<typeof browser.downloads.download>[0];
type Ended = { state: "complete" } | { state: "interrupted"; reason: string };
type Delta = Parameters<Parameters<typeof browser.downloads.onChanged.addListener>[0]>[0];

/** How often a running download's bytes are read (`onChanged` does not report them). */
const PROGRESS_EVERY_MS = 300;
/** The running downloads, by task: what `audio/download-progress` answers. */
const running = new Map<string, DownloadProgress>();

export function downloadProgress(taskId: string): DownloadProgress | null {
  return running.get(taskId) ?? null;
}

/** Reads a download's bytes into `running` until `stop()` is called. */
function watchProgress(taskId: string, downloadId: number): () => void {
  running.set(taskId, { received: 0, total: null });
  const timer = setInterval(() => {
    void Promise.resolve()
      .then(() => browser.downloads.search({ id: downloadId }))
      .then(([item]) => {
        if (!item || !running.has(taskId)) return;
        const total = item.totalBytes > 0 ? item.totalBytes : null;
        running.set(taskId, { received: item.bytesReceived, total });
      })
      .catch(() => undefined);
  }, PROGRESS_EVERY_MS);
  return () => {
    clearInterval(timer);
    running.delete(taskId);
  };
}

/**
 * Starts one download and waits for its end through `downloads.onChanged`. The listener is added
 * before the download starts: a fast failure can be reported before `download()` resolves.
 */
async function downloadToEnd(taskId: string, options: DownloadOptions): Promise<Ended> {
  const ended = new Map<number, Ended>();
  const waiting = new Map<number, (end: Ended) => void>();
  const listener = (delta: Delta) => {
    const state = delta.state?.current;
    if (state !== "complete" && state !== "interrupted") return;
    const end: Ended =
      state === "complete" ? { state } : { state, reason: delta.error?.current ?? "UNKNOWN" };
    const resolve = waiting.get(delta.id);
    if (resolve) resolve(end);
    else ended.set(delta.id, end);
  };
  browser.downloads.onChanged.addListener(listener);
  let stopWatching: () => void = () => undefined;
  try {
    const id = await browser.downloads.download(options);
    stopWatching = watchProgress(taskId, id);
    return (
      ended.get(id) ??
      (await new Promise<Ended>((resolve) => {
        waiting.set(id, resolve);
      }))
    );
  } finally {
    stopWatching();
    browser.downloads.onChanged.removeListener(listener);
  }
}

/** The task as the backend knows it now (a retry may find a new archived copy), else as stored. */
async function currentTask(ctx: Context, id: string): Promise<Task> {
  const stored = (await ctx.store.read()).tasks.find((t) => t.id === id);
  try {
    return await ctx.call((api) => api.task(id));
  } catch (error) {
    if (stored) return stored;
    throw error;
  }
}

/** The end of an archive download as the view reports it. */
function archiveOutcome(end: Ended, platformLinkFailed: boolean): DownloadResult {
  if (end.state === "complete") return { state: "complete", source: "archive", platformLinkFailed };
  const problem = problemOf(end.reason);
  if (problem === "cancelled") return { state: "cancelled" };
  return { state: "failed", problem, reason: end.reason };
}

/**
 * Saves a result through the downloads API, named after the track, and watches it to its end.
 * An archived result comes from the backend (the original or its MP3, sent with the session
 * bearer, which never leaves the background). Before that, the original comes from the
 * platform's link while it looks valid, then, if the platform does not serve it, from the
 * archive if there is one by then.
 */
export async function downloadResult(
  ctx: Context,
  id: string,
  format: AudioFormat = "original",
): Promise<DownloadResult> {
  const task = await currentTask(ctx, id);
  const session = await ctx.requireSession();
  const backend = (await backendUrl()) ?? undefined;
  const fromArchive = (url: string) =>
    downloadToEnd(id, {
      url: new URL(url, backend).href,
      filename: resultFileName(task, format),
      headers: [{ name: "Authorization", value: `Bearer ${session.token}` }],
    });
  const archive = task.archive?.status === "archived" ? task.archive : null;
  if (format === "mp3") {
    if (!archive?.mp3_url)
      throw new OvertureError("not_found", "The MP3 exists once the result is archived.");
    return archiveOutcome(await fromArchive(archive.mp3_url), false);
  }
  const archived = archive?.audio_url ?? task.audio_url;
  if (archive && archived) return archiveOutcome(await fromArchive(archived), false);

  let platformLinkFailed = false;
  let lastReason: string | null = null;
  if (task.file_url && linkState(task, ctx.deps.now()).valid) {
    const end = await downloadToEnd(id, {
      url: task.file_url,
      filename: resultFileName(task, format),
    });
    if (end.state === "complete")
      return { state: "complete", source: "platform", platformLinkFailed };
    const problem = problemOf(end.reason);
    if (problem === "cancelled") return { state: "cancelled" };
    if (problem !== "link_expired") return { state: "failed", problem, reason: end.reason };
    platformLinkFailed = true;
    lastReason = end.reason;
  }
  if (archived) return archiveOutcome(await fromArchive(archived), platformLinkFailed);
  const noCopy = noCopyError(task);
  if (lastReason && noCopy.code === "link_expired")
    return { state: "failed", problem: "link_expired", reason: lastReason };
  throw noCopy;
}
