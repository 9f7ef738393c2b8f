/**
 * The five statuses a platform task can report (spec 2.6), in lifecycle order.
 *
 * @example
 * ```ts
 * TASK_STATUSES.includes("waiting"); // true
 * ```
 */
export const TASK_STATUSES = ["waiting", "in_progress", "success", "failure", "cancelled"] as const;

/** One of the spec's task statuses (spec 2.6). */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses after which a task never changes again. */
export const TERMINAL_STATUSES = [
  "success",
  "failure",
  "cancelled",
] as const satisfies readonly TaskStatus[];

/** A status after which a task never changes again. */
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** Statuses from which the cancel operation is allowed (spec 3.1). */
export const CANCELLABLE_STATUSES = [
  "waiting",
  "in_progress",
] as const satisfies readonly TaskStatus[];

/** Whether `value` is one of the spec's five statuses. */
export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === "string" && (TASK_STATUSES as readonly string[]).includes(value);
}

/** Whether `status` is `success`, `failure` or `cancelled`. */
export function isTerminalStatus(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** Whether a task in `status` may be cancelled: `waiting` or `in_progress` (spec 3.1). */
export function isCancellableStatus(status: string): status is "waiting" | "in_progress" {
  return (CANCELLABLE_STATUSES as readonly string[]).includes(status);
}

/**
 * Position of a status in the forward-only order: `waiting` 0, `in_progress` 1, any terminal 2.
 * Unknown statuses have no rank (`undefined`).
 */
export function statusRank(status: string): 0 | 1 | 2 | undefined {
  if (status === "waiting") return 0;
  if (status === "in_progress") return 1;
  return isTerminalStatus(status) ? 2 : undefined;
}

/** Outcome of {@link mergeStatus}. */
export type MergeResult =
  | { readonly status: TaskStatus; readonly changed: boolean }
  | { readonly status: TaskStatus; readonly changed: false; readonly unknown: string };

/**
 * Merges a newly reported status into the current one so that status only moves forward:
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
