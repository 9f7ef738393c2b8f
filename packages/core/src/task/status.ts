/**
 * The five statuses a platform task can report (spec 2.6), in lifecycle order.
 *
 * @example
 * ```ts
 * TASK_STATUSES.includes("waiting"); // true
 * ```
 */
export const TASK_STATUSES = ["waiting", "in_progress", "success", "failure", "cancelled"] as const;

/**
 * One of the spec's five task statuses (spec 2.6).
 *
 * @example
 * ```ts
 * let status: TaskStatus = "waiting";
 * ```
 */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * Statuses after which a task never changes again: `success`, `failure`, `cancelled` (spec 2.6,
 * 3.1; the spec shows no transition out of them).
 *
 * @example
 * ```ts
 * TERMINAL_STATUSES.includes("success"); // true
 * ```
 */
export const TERMINAL_STATUSES = [
  "success",
  "failure",
  "cancelled",
] as const satisfies readonly TaskStatus[];

/**
 * A status after which a task never changes again (spec 2.6, 3.1).
 *
 * @example
 * ```ts
 * const done: TerminalStatus = "failure";
 * ```
 */
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/**
 * Statuses from which the cancel operation is allowed (spec 3.1, 4.7).
 *
 * @example
 * ```ts
 * CANCELLABLE_STATUSES.includes("in_progress"); // true
 * ```
 */
export const CANCELLABLE_STATUSES = [
  "waiting",
  "in_progress",
] as const satisfies readonly TaskStatus[];

/**
 * Whether `value` is one of the spec's five statuses (spec 2.6); case-sensitive.
 *
 * @example
 * ```ts
 * isTaskStatus("success"); // true
 * isTaskStatus("SUCCESS"); // false
 * ```
 */
export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === "string" && (TASK_STATUSES as readonly string[]).includes(value);
}

/**
 * Whether `status` is `success`, `failure` or `cancelled` (spec 2.6).
 *
 * @example
 * ```ts
 * if (isTerminalStatus(task.status)) stopPolling();
 * ```
 */
export function isTerminalStatus(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/**
 * Whether a task in `status` may be cancelled: `waiting` or `in_progress` (spec 3.1).
 *
 * @example
 * ```ts
 * if (isCancellableStatus(task.status)) await client.cancelTask(token, task.task_id);
 * ```
 */
export function isCancellableStatus(status: string): status is "waiting" | "in_progress" {
  return (CANCELLABLE_STATUSES as readonly string[]).includes(status);
}

/**
 * Position of a status in the forward-only order: `waiting` 0, `in_progress` 1, any terminal 2
 * (spec 2.6, 3.1). Unknown statuses have no rank (`undefined`).
 *
 * @example
 * ```ts
 * statusRank("in_progress"); // 1
 * statusRank("paused");      // undefined
 * ```
 */
export function statusRank(status: string): 0 | 1 | 2 | undefined {
  if (status === "waiting") return 0;
  if (status === "in_progress") return 1;
  return isTerminalStatus(status) ? 2 : undefined;
}

/**
 * Outcome of {@link mergeStatus} (spec 2.6, 6): the status to keep, whether it changed, and an
 * unknown incoming status when there was one.
 *
 * @example
 * ```ts
 * const { status, changed } = mergeStatus(row.status, event.status);
 * if (changed) await save(status);
 * ```
 */
export type MergeResult =
  | { readonly status: TaskStatus; readonly changed: boolean }
  | { readonly status: TaskStatus; readonly changed: false; readonly unknown: string };

/**
 * Merges a newly reported status into the current one so that status only moves forward (spec
 * 2.6, 3.1, 6):
 * `waiting` < `in_progress` < terminal, and the first terminal status wins. Webhooks can arrive
 * late, twice or out of order (spec 6); this makes applying them in any order safe.
 *
 * An incoming status the spec does not list is never applied and never throws: the result keeps
 * the current status and reports the unknown string so the caller can log it.
 *
 * @example
 * ```ts
 * mergeStatus("in_progress", "waiting"); // { status: "in_progress", changed: false }
 * mergeStatus("success", "failure");     // { status: "success", changed: false }
 * mergeStatus("waiting", "paused");      // { status: "waiting", changed: false, unknown: "paused" }
 * ```
 */
export function mergeStatus(current: TaskStatus, incoming: string): MergeResult {
  const incomingRank = statusRank(incoming);
  if (incomingRank === undefined) return { status: current, changed: false, unknown: incoming };
  const currentRank = statusRank(current) ?? 0;
  if (incomingRank > currentRank) return { status: incoming as TaskStatus, changed: true };
  return { status: current, changed: false };
}
