import {
  activeCount,
  isActive,
  mergeTasks,
  newlyFinished,
  noteDeletions,
} from "../shared/snapshot.ts";
import { backendUrl } from "../shared/storage.ts";
import type { Task } from "../shared/types.ts";
import { mediaLinkKey } from "./archive.ts";
import { showActiveCount } from "./badge.ts";
import type { Context } from "./context.ts";
import { notifyFinished } from "./notify.ts";
import { schedulePolling } from "./poller.ts";

/**
 * Applies fresh task rows (from a live event, an alarm check or a request) to the snapshot, then
 * does what a change implies: the badge count, one notification per task that just finished, and
 * the polling alarm while anything is still active.
 */
export async function applyTasks(ctx: Context, fresh: readonly Task[]): Promise<void> {
  const { before, after } = await ctx.store.update((s) => ({
    ...s,
    tasks: mergeTasks(s.tasks, fresh),
    deletions: noteDeletions(s.deletions, fresh),
  }));
  await settle(before.tasks, after.tasks);
  const noted = new Set(before.deletions.map((deletion) => deletion.id));
  await forgetLocalCopies(
    ctx,
    after.deletions.flatMap((deletion) => (noted.has(deletion.id) ? [] : [deletion.id])),
  );
  // A task that ended freed a slot (or a queued one took it): the quota shown must follow. Not
  // awaited: the live stream applies its next events meanwhile, and the read is coalesced.
  if (activeCount(before.tasks) !== activeCount(after.tasks)) void ctx.refreshQuota();
}

/**
 * A track its owner deleted (here or on another device) keeps nothing on this device: its audio,
 * its waveform and its media links go at once (the backend answers its audio with `no-cache`,
 * so the browser's own media cache asks again too). Restored within the undo window, it is
 * fetched again when played.
 */
async function forgetLocalCopies(ctx: Context, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const backend = (await backendUrl()) ?? "";
  for (const id of ids) {
    ctx.mediaLinks.forget(mediaLinkKey(backend, id));
    await ctx.audioCache.delete(backend, id).catch(() => undefined);
    await ctx.peaks.delete(backend, id).catch(() => undefined);
  }
}

/** Badge, notifications and alarm for a change of the task list from `before` to `after`. */
export async function settle(before: readonly Task[], after: readonly Task[]): Promise<void> {
  const active = activeCount(after);
  await showActiveCount(active);
  for (const task of newlyFinished(before, after)) await notifyFinished(task);
  await schedulePolling(active > 0);
}

/**
 * Re-reads every active task from the backend (the alarm's work when no view keeps the live
 * stream open). Tasks the backend no longer knows are left as they were.
 */
export async function checkActiveTasks(ctx: Context): Promise<void> {
  const snapshot = await ctx.store.read();
  const active = snapshot.tasks.filter(isActive);
  if (active.length === 0) {
    await settle(snapshot.tasks, snapshot.tasks);
    return;
  }
  const fresh = await ctx.call(async (api) => {
    const rows = await Promise.all(active.map((task) => api.task(task.id).catch(() => null)));
    return rows.filter((row): row is Task => row !== null);
  });
  await applyTasks(ctx, fresh);
  // The same read as the one applyTasks may have asked for (coalesced).
  await ctx.refreshQuota();
}
