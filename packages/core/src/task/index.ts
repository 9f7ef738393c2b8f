/**
 * Task state rules of the platform's asynchronous tasks (spec 2.6, 2.7, 3.1).
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
