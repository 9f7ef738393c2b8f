/**
 * `@overture/backend/api`: the backend's contract for clients. Types are inferred from the route
 * schemas (`schemas/`) and given as a client receives them, parsed from JSON (what `hono/client`
 * returns); beside them import-free constants a client may load at runtime: the error codes, the
 * task states and the other lists and limits of `schemas/task-states.ts`. Nothing here pulls zod,
 * hono or Node into a bundle.
 *
 * ```ts
 * import type { AppType, Task } from "@overture/backend/api";
 * import { TASK_NOT_FOUND } from "@overture/backend/api";
 * ```
 */
import type { z } from "@hono/zod-openapi";
import type { JSONParsed } from "hono/utils/types";
import type * as account from "./schemas/account.ts";
import type * as archive from "./schemas/archive.ts";
import type * as credentials from "./schemas/credentials.ts";
import type * as library from "./schemas/library.ts";
import type * as rejections from "./schemas/rejections.ts";
import type * as share from "./schemas/share.ts";
import type * as task from "./schemas/task.ts";

export type { AppType } from "./app.ts";
export {
  ARCHIVE_FAILURES,
  ARCHIVE_STATES,
  EVENT_RESET_REASONS,
  LIBRARY_SORTS,
  SHARE_EXPIRIES,
  TASK_STATES,
  TITLE_MAX_LENGTH,
  type ArchiveFailure,
  type ArchiveState,
  type EventResetReason,
  type LibrarySort,
  type ShareExpiry,
  type TaskState,
} from "./schemas/task-states.ts";
export * from "./schemas/error-codes.ts";

export type PublicUser = JSONParsed<account.PublicUser>;
export type SessionToken = JSONParsed<account.SessionToken>;
export type SignInCheck = JSONParsed<account.SignInCheck>;
export type Me = JSONParsed<account.Me>;
export type SessionSummary = JSONParsed<account.SessionSummary>;
export type AccessTokenMeta = JSONParsed<credentials.AccessTokenMeta>;
export type Selection = JSONParsed<credentials.Selection>;
export type WebhookSecretStatus = JSONParsed<credentials.WebhookSecretStatus>;
export type WebhookRejection = JSONParsed<rejections.WebhookRejection>;
export type RejectionPage = JSONParsed<rejections.RejectionPage>;
export type Task = JSONParsed<task.Task>;
export type TaskPage = JSONParsed<task.TaskPage>;
export type EventChanges = JSONParsed<task.EventChanges>;
export type EventReset = JSONParsed<task.EventReset>;
export type Quota = JSONParsed<task.Quota>;
export type FieldError = JSONParsed<task.FieldError>;
export type TaskArchive = JSONParsed<archive.TaskArchive>;
export type Peaks = JSONParsed<archive.PeaksJson>;
export type ArchiveUsage = JSONParsed<archive.ArchiveUsage>;
export type MediaLink = JSONParsed<archive.MediaLink>;
export type TaskPatch = library.TaskPatch;
export type TaskDeletion = JSONParsed<library.TaskDeletion>;
export type TaskDetails = JSONParsed<library.TaskDetails>;
export type TaskEstimate = JSONParsed<library.TaskEstimate>;
export type ShareCreate = z.input<typeof share.shareCreateSchema>;
export type Share = JSONParsed<share.Share>;
export type ShareList = JSONParsed<share.ShareList>;
