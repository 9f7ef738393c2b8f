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

/**
 * Why the server tells a client to reload its task list instead of replaying what it missed
 * (`event: reset` on `/api/events`, `reset` of `/api/events/changes`): its event id is newer
 * than any this database has held (`ahead_of_server`: the database was restored from a backup
 * since), or retention deleted events after it (`older_than_retention`).
 */
export const EVENT_RESET_REASONS = ["ahead_of_server", "older_than_retention"] as const;
export type EventResetReason = (typeof EVENT_RESET_REASONS)[number];

/**
 * Where a successful task's result is in archiving: `pending` (to be downloaded), `archived`
 * (stored; every instance serves it), `failed` (see the task's `archive.error`), `expired`
 * (removed after the retention period). Null: nothing to archive (not a success, or archiving off).
 */
export const ARCHIVE_STATES = ["pending", "archived", "failed", "expired"] as const;
export type ArchiveState = (typeof ARCHIVE_STATES)[number];

/**
 * Why a result was not archived (`archive.error` of a task whose archive `failed`):
 * `download_failed` (after every retry, or the link expired), `url_refused` (a host outside the
 * allow-list), `file_too_large` (over ARCHIVE_MAX_FILE_MB), `not_audio`, `archive_quota_exceeded`
 * (the user's archived files would exceed ARCHIVE_QUOTA_MB).
 */
export const ARCHIVE_FAILURES = [
  "download_failed",
  "url_refused",
  "file_too_large",
  "not_audio",
  "archive_quota_exceeded",
] as const;
export type ArchiveFailure = (typeof ARCHIVE_FAILURES)[number];

/** Orders of the library (`GET /api/tasks?sort=`): by creation, or by title A to Z. */
export const LIBRARY_SORTS = ["newest", "oldest", "title"] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

/** Longest track title, in characters (code points): the rename schema's limit, told by clients before asking. */
export const TITLE_MAX_LENGTH = 200;

/** How long a share link lives, as its owner chooses. */
export const SHARE_EXPIRIES = ["1d", "7d", "30d", "never"] as const;
export type ShareExpiry = (typeof SHARE_EXPIRIES)[number];
