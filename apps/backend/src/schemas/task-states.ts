/**
 * Where a task is in its life. The platform's five statuses (spec 2.6) plus Overture's own:
 * `queued` (kept locally until quota frees), `submitting` (a submit is in flight), `rejected`
 * (the platform refused the submit with a 4xx), `unknown` (a submit failed ambiguously: it may or
 * may not exist on the platform, so it is never retried blindly). The database column, the API's
 * `Task.status` and the extension all use this list; it has no imports, so clients can load it.
 */
export const TASK_STATES = [
  "queued",
  "submitting",
  "rejected",
  "unknown",
  "waiting",
  "in_progress",
  "success",
  "failure",
  "cancelled",
] as const;
export type TaskState = (typeof TASK_STATES)[number];
