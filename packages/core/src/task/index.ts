/**
 * Task state rules of the platform's asynchronous tasks (spec 2.6, 2.7, 3.1).
 *
 * ## Choices where the spec is silent
 *
 * `waiting` < `in_progress` < terminal (`success`, `failure`, `cancelled`); the first terminal
 * status wins; a late or repeated event never moves a task back. An unknown status is never
 * applied, never thrown, and reported (`mergeStatus(...).unknown`, `watchTask`'s
 * `onUnknownStatus`).
 *
 * @packageDocumentation
 */
export {
  TASK_STATUSES,
  TERMINAL_STATUSES,
  CANCELLABLE_STATUSES,
  isTaskStatus,
  isTerminalStatus,
  isCancellableStatus,
  statusRank,
  mergeStatus,
} from "./status.ts";
export type { TaskStatus, TerminalStatus, MergeResult } from "./status.ts";
