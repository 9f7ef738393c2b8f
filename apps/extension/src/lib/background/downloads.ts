import { browser } from "wxt/browser";
import { OvertureError } from "../errors.ts";
import { linkState } from "../format.ts";
import type { Task } from "../types.ts";
import type { Context } from "./context.ts";

/** File name for a result: the extension of the link's path, or `.wav` (the platform's). */
export function resultFileName(task: Task, url: string): string {
  const extension = /\.([a-z0-9]{2,5})$/i.exec(new URL(url).pathname)?.[1] ?? "wav";
  return `overture-${task.id}.${extension.toLowerCase()}`;
}

/**
 * Saves a result through the downloads API: the platform's link while it is valid, else the
 * backend's archived copy (sent with the session bearer, which never leaves the background).
 */
export async function downloadResult(ctx: Context, id: string): Promise<{ downloadId: number }> {
  const snapshot = await ctx.store.read();
  const task = snapshot.tasks.find((t) => t.id === id) ?? (await ctx.call((api) => api.task(id)));
  const session = await ctx.requireSession();
  if (task.file_url && linkState(task, ctx.deps.now()).valid) {
    const downloadId = await browser.downloads.download({
      url: task.file_url,
      filename: resultFileName(task, task.file_url),
    });
    return { downloadId };
  }
  if (task.audio_url) {
    const downloadId = await browser.downloads.download({
      url: task.audio_url,
      filename: resultFileName(task, task.audio_url),
      headers: [{ name: "Authorization", value: `Bearer ${session.token}` }],
    });
    return { downloadId };
  }
  throw new OvertureError("link_expired", "The result link has expired and no copy was archived.");
}
