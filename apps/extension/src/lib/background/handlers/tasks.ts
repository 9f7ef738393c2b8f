import { OvertureError } from "../../shared/errors.ts";
import { listParams } from "../../shared/library-query.ts";
import { applyTasks } from "../tasks.ts";
import type { Handler } from "./context.ts";

// Every answer that carries a changed task also lands in the snapshot (applyTasks), so every
// open view shows the change, not only the one that asked.

/** `tasks/submit`: a new task with the chosen access token. */
export const submitTask: Handler<"tasks/submit"> = async ({ ctx }, { params }) => {
  const snapshot = await ctx.store.read();
  if (!snapshot.selection) throw new OvertureError("no_selection", "Choose an access token first.");
  const task = await ctx.call((api) => api.submitTask(params));
  await applyTasks(ctx, [task]);
  return task;
};

/** `tasks/cancel`. */
export const cancelTask: Handler<"tasks/cancel"> = async ({ ctx }, { id }) => {
  const task = await ctx.call((api) => api.cancelTask(id));
  await applyTasks(ctx, [task]);
  return task;
};

/** `tasks/more`: the next page of the library, after the snapshot's newest. */
export const moreTasks: Handler<"tasks/more"> = ({ ctx }, { cursor }) =>
  ctx.call((api) => api.tasks({ cursor, limit: 20 }));

/** `tasks/search`: a page of the library searched, filtered or sorted. */
export const searchTasks: Handler<"tasks/search"> = ({ ctx }, { query, cursor }) =>
  ctx.call((api) => api.library(listParams(query, cursor)));

/** `tasks/update`: rename and/or (un)favourite. */
export const updateTask: Handler<"tasks/update"> = async ({ ctx }, { id, patch }) => {
  const task = await ctx.call((api) => api.updateTask(id, patch));
  await applyTasks(ctx, [task]);
  return task;
};

/** `tasks/delete`: hidden at once, restorable until the answer's `undo_until`. */
export const deleteTask: Handler<"tasks/delete"> = async ({ ctx }, { id }) => {
  const deletion = await ctx.call((api) => api.deleteTask(id));
  await applyTasks(ctx, [deletion.task]);
  return deletion;
};

/** `tasks/restore`: a deleted task back, within its undo window. */
export const restoreTask: Handler<"tasks/restore"> = async ({ ctx }, { id }) => {
  const task = await ctx.call((api) => api.restoreTask(id));
  await applyTasks(ctx, [task]);
  return task;
};

/** `tasks/regenerate`: the same parameters again, as a new task. */
export const regenerateTask: Handler<"tasks/regenerate"> = async ({ ctx }, { id }) => {
  const task = await ctx.call((api) => api.regenerate(id));
  await applyTasks(ctx, [task]);
  return task;
};

/** `tasks/details`: everything known about one task. */
export const taskDetails: Handler<"tasks/details"> = ({ ctx }, { id }) =>
  ctx.call((api) => api.details(id));

/** `tasks/estimate`: how long a running task is likely to take still. */
export const estimateTask: Handler<"tasks/estimate"> = ({ ctx }, { id }) =>
  ctx.call((api) => api.estimate(id));

/** `shares/create`: a public link to a track (its URL is in this answer only). */
export const createShare: Handler<"shares/create"> = ({ ctx }, { id, ...share }) =>
  ctx.call((api) => api.createShare(id, share));

/** `shares/list`: a track's links and their status. */
export const listShares: Handler<"shares/list"> = ({ ctx }, { id }) =>
  ctx.call((api) => api.shares(id));

/** `shares/revoke`: ends one link. */
export const revokeShare: Handler<"shares/revoke"> = ({ ctx }, { shareId }) =>
  ctx.call((api) => api.revokeShare(shareId));
