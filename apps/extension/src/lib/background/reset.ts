import { mergeTasks } from "../shared/snapshot.ts";
import type { Api } from "./api.ts";
import type { Context } from "./context.ts";
import { settle } from "./tasks.ts";

/** Newest tasks read when the list is reloaded (as a refresh reads them). */
const PAGE = 20;

/**
 * Why the backend says this client must reload its list, from a catch-up answer's `reset` field
 * or a stream's `reset` frame: `ahead_of_server` (the position is newer than its newest event,
 * as after a restore from a backup) or `older_than_retention` (its events were pruned past it).
 * Read tolerantly: any other shape is no reset, and a reason this build does not know still is
 * one (reloading is always safe; missing one is not).
 */
export function resetOf(answer: unknown): string | null {
  if (typeof answer !== "object" || answer === null) return null;
  const reset = (answer as { reset?: unknown }).reset;
  return typeof reset === "string" && reset !== "" ? reset : null;
}

/**
 * Reads the newest tasks again and puts them in place of the known list: after a reset the
 * events in between are gone, so a task known here may no longer exist there, and merging would
 * keep it forever. Older pages are fetched by the views as they scroll, as always.
 */
export async function reloadTasks(ctx: Context, api: Api): Promise<void> {
  const page = await api.tasks({ limit: PAGE });
  const { before, after } = await ctx.store.update((s) => ({
    ...s,
    tasks: mergeTasks([], page.tasks),
    nextCursor: page.next_cursor,
  }));
  await settle(before.tasks, after.tasks);
  void ctx.refreshQuota().catch(() => undefined);
}
