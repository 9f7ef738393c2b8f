import { z } from "@hono/zod-openapi";
import { taskArchiveSchema } from "./archive.ts";
import { isoTime } from "./common.ts";
import { eventIdSchema } from "./event-id.ts";
import { TASK_STATES } from "./task-states.ts";

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

/** `GET /api/events/changes`: each task changed after an event id, and where that leaves the client. */
export const eventChangesSchema = z
  .object({
    tasks: z.array(taskSchema),
    last_event_id: eventIdSchema.openapi({
      description: "Resume the event stream from here (`Last-Event-ID`)",
    }),
    more: z.boolean().openapi({ description: "Ask again with `after=last_event_id`" }),
  })
  .openapi("EventChanges");

export type EventChanges = z.infer<typeof eventChangesSchema>;

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
