import { browser } from "wxt/browser";
import { type DownloadResult, problemOf } from "../download-result.ts";
import { OvertureError } from "../errors.ts";
import { linkState } from "../format.ts";
import type { Task } from "../types.ts";
import type { Context } from "./context.ts";

/** File name for a result: the extension of the link's path, or `.wav` (the platform's). */
export function resultFileName(task: Task, url: string): string {
  const extension = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1] ?? "wav";
  return `overture-${task.id}.${extension.toLowerCase()}`;
}

type DownloadOptions = Parameters<typeof browser.downloads.download>[0];
type Ended = { state: "complete" } | { state: "interrupted"; reason: string };
type Delta = Parameters<Parameters<typeof browser.downloads.onChanged.addListener>[0]>[0];

/**
 * Starts one download and waits for its end through `downloads.onChanged`. The listener is added
 * before the download starts: a fast failure can be reported before `download()` resolves.
 */
async function downloadToEnd(options: DownloadOptions): Promise<Ended> {
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
  try {
    const id = await browser.downloads.download(options);
    return (
      ended.get(id) ??
      (await new Promise<Ended>((resolve) => {
        waiting.set(id, resolve);
      }))
    );
  } finally {
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

/**
 * Saves a result through the downloads API and watches it to its end: the platform's link while
 * it looks valid, then, if the platform does not serve it (expired or missing), the backend's
 * archived copy (sent with the session bearer, which never leaves the background).
 */
export async function downloadResult(ctx: Context, id: string): Promise<DownloadResult> {
  const task = await currentTask(ctx, id);
  const session = await ctx.requireSession();
  let platformLinkFailed = false;
  let lastReason: string | null = null;
  if (task.file_url && linkState(task, ctx.deps.now()).valid) {
    const end = await downloadToEnd({
      url: task.file_url,
      filename: resultFileName(task, task.file_url),
    });
    if (end.state === "complete")
      return { state: "complete", source: "platform", platformLinkFailed };
    const problem = problemOf(end.reason);
    if (problem === "cancelled") return { state: "cancelled" };
    if (problem !== "link_expired") return { state: "failed", problem, reason: end.reason };
    platformLinkFailed = true;
    lastReason = end.reason;
  }
  if (task.audio_url) {
    const end = await downloadToEnd({
      url: task.audio_url,
      filename: resultFileName(task, task.audio_url),
      headers: [{ name: "Authorization", value: `Bearer ${session.token}` }],
    });
    if (end.state === "complete")
      return { state: "complete", source: "archive", platformLinkFailed };
    const problem = problemOf(end.reason);
    if (problem === "cancelled") return { state: "cancelled" };
    return { state: "failed", problem, reason: end.reason };
  }
  if (lastReason) return { state: "failed", problem: "link_expired", reason: lastReason };
  throw new OvertureError("link_expired", "The result link has expired and no copy was archived.");
}
