import { z } from "@hono/zod-openapi";
import { taskArchiveSchema } from "./archive.ts";
import { isoTime } from "./common.ts";
import { eventIdSchema } from "./event-id.ts";
import { EVENT_RESET_REASONS, TASK_STATES } from "./task-states.ts";

const jsonObject = z.record(z.string(), z.unknown());

/**
 * A task as the API, the live-event stream and the task-event snapshots show it. One shape
 * everywhere: the extension renders SSE payloads and `GET /api/tasks` rows with the same code.
 */
export const taskSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    status: z.enum(TASK_STATES).openapi({
      description:
        "The platform's statuses plus Overture's own: `queued` (waiting for quota), `submitting`, `rejected` (the platform refused the submit), `unknown` (a submit failed ambiguously and was not retried)",
    }),
    namespace: z.string(),
    platform_task_id: z.string().nullable(),
    title: z.string().openapi({
      description: "The track's name in the library: the prompt's first line until renamed",
    }),
    favourite: z.boolean(),
    deleted_at: isoTime.nullable().openapi({
      description:
        "Set while a deleted task can still be restored (`POST /api/tasks/{id}/restore`); live events show it, lists do not",
    }),
    params: jsonObject.openapi({
      description: "The validated music parameters (spec 4.6), defaults filled in",
    }),
    webhook_expected: z.boolean(),
    output: jsonObject.nullable().openapi({ description: "The platform's `output`, as sent" }),
    usage_info: jsonObject
      .nullable()
      .openapi({ description: "The platform's `usage_info`, as sent" }),
    error: z
      .string()
      .nullable()
      .openapi({ description: "Why the task failed, was rejected or is `unknown`, in words" }),
    unknown_status: z
      .string()
      .nullable()
      .openapi({ description: "A status the spec does not list (kept, not applied)" }),
    file_url: z.string().nullable().openapi({
      description: "The platform's result link (`output.file_url`, or `output.url`); it expires",
    }),
    file_expires_at: isoTime
      .nullable()
      .openapi({ description: "A signed link's own expiry, else completion + 24 h (spec 8)" }),
    audio_url: z.string().nullable().openapi({
      description: "The backend's archived original (session bearer), when archived; see `archive`",
    }),
    archive: taskArchiveSchema.nullable(),
    created_at: isoTime,
    submitted_at: isoTime.nullable(),
    finished_at: isoTime.nullable(),
    updated_at: isoTime,
  })
  .openapi("Task");

export type Task = z.infer<typeof taskSchema>;

/** One page of `GET /api/tasks`. */
export const taskPageSchema = z.object({
  tasks: z.array(taskSchema),
  next_cursor: z.string().nullable(),
});

export type TaskPage = z.infer<typeof taskPageSchema>;

const resetReason = z.enum(EVENT_RESET_REASONS).openapi({
  description:
    "`ahead_of_server`: the id is newer than any this database has held (it was restored from a backup since); " +
    "`older_than_retention`: retention deleted events after it. Either way, reload the task list " +
    "(`GET /api/tasks`) and resume from `last_event_id`",
});

/** `GET /api/events/changes`: each task changed after an event id, and where that leaves the client. */
export const eventChangesSchema = z
  .object({
    tasks: z.array(taskSchema),
    last_event_id: eventIdSchema.openapi({
      description: "Resume the event stream from here (`Last-Event-ID`)",
    }),
    more: z.boolean().openapi({ description: "Ask again with `after=last_event_id`" }),
    reset: resetReason.optional().openapi({
      description:
        "Present when no list of changes can bring the client up to date: then `tasks` is empty, `more` false, " +
        "and `last_event_id` the newest event id. Reload the task list and resume from `last_event_id`",
    }),
  })
  .openapi("EventChanges");

export type EventChanges = z.infer<typeof eventChangesSchema>;

/**
 * The `data:` of an `event: reset` frame of `/api/events`: the stream replays nothing and goes
 * on live after `last_event_id` (also the frame's `id:`); the client reloads its task list.
 */
export const eventResetSchema = z
  .object({
    reason: resetReason,
    last_event_id: eventIdSchema.openapi({ description: "The newest event id; the frame's `id:`" }),
  })
  .openapi("EventReset");

export type EventReset = z.infer<typeof eventResetSchema>;

/** A refused music parameter (core's `MusicFieldError`), listed in `fields` of `invalid_parameters`. */
export const fieldErrorSchema = z.object({
  field: z.string(),
  code: z.string(),
  message: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(z.string()).optional(),
});

export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The selected account's free quota (spec 4.7) and its local queue. */
export const quotaSchema = z
  .object({
    /** Free concurrency slots as the platform reports them; null when its answer does not say. */
    available: z.number().nullable(),
    max_concurrency: z.number().nullable(),
    /** Tasks of this account waiting in Overture's local queue. */
    queued: z.number().int(),
    namespace: z.string(),
  })
  .openapi("Quota");

export type Quota = z.infer<typeof quotaSchema>;
