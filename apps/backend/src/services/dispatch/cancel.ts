import { isPlatformError } from "@overture/core/errors";
import { isTerminalStatus } from "@overture/core/task";
import { ApiError } from "../../lib/errors.ts";
import { reportOfTask } from "../tasks/merge.ts";
import type { DispatchDeps } from "./deps.ts";
import type { TaskRow } from "../../db/schema/index.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { NOT_CANCELLABLE } from "../../schemas/error-codes.ts";

/** What a cancel calls: the record, the platform and the proxy tokens, and the log. */
type CancelDeps = Pick<DispatchDeps, "record" | "platform" | "proxyTokens" | "logger">;

const notCancellable = (row: TaskRow, why: string) =>
  new ApiError(409, NOT_CANCELLABLE, `Task ${row.id} cannot be cancelled: ${why}.`, {
    status: row.status,
  });

/** Asks the platform to cancel, then merges what it says the task now is. */
async function cancelOnPlatform(
  deps: CancelDeps,
  row: TaskRow,
  platformTaskId: string,
): Promise<TaskRow> {
  const call = <T>(fn: (token: string) => Promise<T>) =>
    deps.proxyTokens.withProxyToken(row.userId, row.namespace, row.tokenId, fn);
  let reported: string | undefined;
  try {
    const answer = await call((token) => deps.platform.cancelTask(token, platformTaskId));
    reported = typeof answer.status === "string" ? answer.status : undefined;
  } catch (error) {
    // A 4xx usually means the task ended meanwhile: learn its state before answering.
    if (!isPlatformError(error, ["PLATFORM_BAD_REQUEST", "PLATFORM_NOT_FOUND"])) throw error;
    const after = await poll(deps, row, platformTaskId, call);
    if (isTerminalStatus(after.status))
      throw notCancellable(after, `it is already ${after.status}`);
    throw error;
  }
  // Without a status in the cancel answer (its body is "not shown", spec 4.7) ask rather than assume.
  if (!reported) return poll(deps, row, platformTaskId, call);
  const result = await deps.record.apply([
    { taskId: row.id, source: "api", platformTaskId, status: reported },
  ]);
  return result.rows.get(row.id) ?? row;
}

async function poll(
  deps: CancelDeps,
  row: TaskRow,
  platformTaskId: string,
  call: <T>(fn: (token: string) => Promise<T>) => Promise<T>,
): Promise<TaskRow> {
  const polled = await call((token) => deps.platform.getTask(token, platformTaskId));
  const result = await deps.record.apply([reportOfTask(row.id, "api", polled)]);
  return result.rows.get(row.id) ?? row;
}

/**
 * Carries out a cancel requested while the task was submitting, once the platform has named it
 * (submit.ts calls it after a submit that finds `cancel_requested_at` set); a failure is logged,
 * since nobody waits for it.
 */
export async function cancelDeferred(deps: CancelDeps, row: TaskRow): Promise<void> {
  if (!row.platformTaskId || isTerminalStatus(row.status)) return;
  try {
    await cancelOnPlatform(deps, row, row.platformTaskId);
  } catch (error) {
    deps.logger.warn({ taskId: row.id, err: errorMessage(error) }, "deferred cancel failed");
  }
}

/**
 * Cancels a task (spec 3.1, 4.7). `queued` → `cancelled` locally; `waiting`/`in_progress` → the
 * platform's cancel, then the platform's word is merged like any report; `submitting` → the
 * request is remembered and carried out as soon as the platform names the task; anything final
 * (or `unknown`, which has no platform id to cancel) → 409 `not_cancellable`.
 */
export function createCanceller(deps: CancelDeps) {
  /** Returns the task after the cancel and whether it is done (200) or pending (202). */
  async function cancel(
    userId: number,
    taskId: string,
  ): Promise<{ row: TaskRow; pending: boolean }> {
    const row = await deps.record.owned(userId, taskId);
    if (row.status === "queued") {
      const after = await deps.record.update(row.id, "api", (current, now) =>
        current.status === "queued"
          ? {
              ...current,
              status: "cancelled",
              finishedAt: now,
              updatedAt: now,
              cancelRequestedAt: now,
              nextPollAt: null, // a Retry-After hold it carried (queue.ts) ends with it
            }
          : undefined,
      );
      // It left the queue meanwhile (claimed for submit): treat it by its new state.
      if (after && after.status !== "queued" && after.status !== "cancelled")
        return cancel(userId, taskId);
      return { row: after ?? row, pending: false };
    }
    if (row.status === "submitting") {
      const after = await deps.record.update(row.id, "api", (current, now) =>
        current.status === "submitting" ? { ...current, cancelRequestedAt: now } : undefined,
      );
      if (after && after.status !== "submitting") return cancel(userId, taskId);
      return { row: after ?? row, pending: true };
    }
    if ((row.status === "waiting" || row.status === "in_progress") && row.platformTaskId) {
      await deps.record.update(row.id, "api", (current, now) => ({
        ...current,
        cancelRequestedAt: now,
      }));
      return { row: await cancelOnPlatform(deps, row, row.platformTaskId), pending: false };
    }
    if (row.status === "unknown") {
      throw notCancellable(
        row,
        "the platform never confirmed it, so there is no platform task to cancel",
      );
    }
    throw notCancellable(row, `it is already ${row.status}`);
  }

  return { cancel };
}
