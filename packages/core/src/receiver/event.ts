import { z } from "zod";
import {
  callbackEventSchema,
  taskErrorSchema,
  taskOutputSchema,
  taskResultUrl,
  usageInfoSchema,
  type CallbackEventBody,
} from "../schemas/index.ts";
import { isTaskStatus, type TaskStatus } from "../task/index.ts";
import { WEBHOOK_EVENT_INVALID } from "./codes.ts";

// One schema per status of spec 2.7, joined on `status`: TypeScript narrows the union the way
// it narrows Stripe's `Event` on `type`. Every object stays loose (unknown fields are kept).

const ids = {
  event_id: z.string().min(1),
  task_id: z.string().min(1),
  usage_info: usageInfoSchema.optional(),
};

/**
 * The output of a success, with its result link in `file_url` whichever field the platform used:
 * `file_url`, or `url`, which some live outputs use instead (docs/platform-facts.md). `url` is
 * kept as sent. A success with neither is not an event a receiver can act on.
 */
const successOutputSchema = taskOutputSchema.transform((output, context) => {
  const link = taskResultUrl({ output });
  if (link === undefined) {
    context.addIssue({
      code: "custom",
      path: ["file_url"],
      message: "a success carries its result link in output.file_url or output.url",
    });
    return z.NEVER;
  }
  return { ...output, file_url: link };
});

const waitingEventSchema = z.looseObject({
  ...ids,
  status: z.literal("waiting"),
  output: taskOutputSchema.nullish(),
});
const inProgressEventSchema = z.looseObject({
  ...ids,
  status: z.literal("in_progress"),
  output: taskOutputSchema.nullish(),
});
const successEventSchema = z.looseObject({
  ...ids,
  status: z.literal("success"),
  output: successOutputSchema,
});
const failureEventSchema = z.looseObject({
  ...ids,
  status: z.literal("failure"),
  output: taskOutputSchema.nullish(),
  /** Some live failures carry their text here, or an `error` beside `output` (platform facts). */
  message: z.string().nullish(),
  error: taskErrorSchema.nullish(),
});
const cancelledEventSchema = z.looseObject({
  ...ids,
  status: z.literal("cancelled"),
  output: taskOutputSchema.nullish(),
});

const callbackEventByStatus = z.discriminatedUnion("status", [
  waitingEventSchema,
  inProgressEventSchema,
  successEventSchema,
  failureEventSchema,
  cancelledEventSchema,
]);

/**
 * A `waiting` callback (spec 2.6, 2.7): the task is queued.
 *
 * @example
 * ```ts
 * onEvent: { waiting: (event: WaitingEvent) => log.info(`${event.task_id} queued`) }
 * ```
 *
 * @useDeclaredType
 */
export type WaitingEvent = z.output<typeof waitingEventSchema>;

/**
 * An `in_progress` callback (spec 2.6, 2.7): the task runs.
 *
 * @example
 * ```ts
 * onEvent: { in_progress: (event: InProgressEvent) => log.info(`${event.task_id} running`) }
 * ```
 *
 * @useDeclaredType
 */
export type InProgressEvent = z.output<typeof inProgressEventSchema>;

/**
 * A `success` callback (spec 2.6, 2.7). `output.file_url` is always the result link, a string:
 * the platform's `output.file_url`, or its `output.url` when it named the link so (some live
 * outputs do; `url` is kept as sent). The link is signed and expires (about 7 days live).
 *
 * @example
 * ```ts
 * if (event.status === "success") await archive(event.task_id, event.output.file_url);
 * ```
 *
 * @useDeclaredType
 */
export type SuccessEvent = z.output<typeof successEventSchema>;

/**
 * A `failure` callback (spec 2.6, 2.7, 7), with the error as the platform sent it:
 * `output.error` (a string, or an object with `code` and `message`), a top-level `error`, or a
 * top-level `message` (seen live). `taskErrorMessage(event)` of `@overture/core/schemas` turns
 * whichever is there into one line.
 *
 * @example
 * ```ts
 * if (event.status === "failure") log.warn(taskErrorMessage(event) ?? "failed without a reason");
 * ```
 *
 * @useDeclaredType
 */
export type FailureEvent = z.output<typeof failureEventSchema>;

/**
 * A `cancelled` callback (spec 2.6, 2.7, 3.1).
 *
 * @example
 * ```ts
 * onEvent: { cancelled: (event: CancelledEvent) => markCancelled(event.task_id) }
 * ```
 *
 * @useDeclaredType
 */
export type CancelledEvent = z.output<typeof cancelledEventSchema>;

/**
 * A verified callback event (spec 2.7), one type per status: checking `status` narrows it, so
 * after `event.status === "success"` the result link `event.output.file_url` is a `string`, and
 * a failure carries its error. Receivers and {@link constructCallbackEvent} hand over this type;
 * the wire shape, with any status, is `CallbackEventBody` of `@overture/core/schemas`.
 *
 * @example
 * ```ts
 * switch (event.status) {
 *   case "success": return play(event.output.file_url); // string, no cast
 *   case "failure": return show(taskErrorMessage(event));
 * }
 * ```
 */
export type CallbackEvent =
  WaitingEvent | InProgressEvent | SuccessEvent | FailureEvent | CancelledEvent;

/**
 * The event type of one status: `CallbackEventOf<"success">` is {@link SuccessEvent}.
 *
 * @example
 * ```ts
 * function onSuccess(event: CallbackEventOf<"success">) { return event.output.file_url; }
 * ```
 */
export type CallbackEventOf<S extends TaskStatus> = Extract<CallbackEvent, { status: S }>;

/**
 * The outcome of {@link parseCallbackEvent}: the typed event, the wire body of a status the spec
 * does not list (`unknownStatus`), or why the body is not an event.
 *
 * @example
 * ```ts
 * const read: CallbackEventReading = parseCallbackEvent(json);
 * ```
 */
export type CallbackEventReading =
  | { readonly ok: true; readonly event: CallbackEvent }
  | { readonly ok: true; readonly unknownStatus: CallbackEventBody }
  | { readonly ok: false; readonly code: typeof WEBHOOK_EVENT_INVALID; readonly message: string };

/**
 * Reads a verified, decoded callback body (spec 2.7) as a {@link CallbackEvent}: the fields of
 * its status checked, a success's result link in `output.file_url`. A body whose status is none
 * of the spec's five comes back as `unknownStatus`, its wire shape, never as a typed event.
 * Never throws.
 *
 * @example
 * ```ts
 * const read = parseCallbackEvent(JSON.parse(text));
 * if (read.ok && "event" in read && read.event.status === "success") play(read.event.output.file_url);
 * ```
 */
export function parseCallbackEvent(json: unknown): CallbackEventReading {
  const body = callbackEventSchema.safeParse(json);
  if (!body.success) return invalid(body.error);
  if (!isTaskStatus(body.data.status)) return { ok: true, unknownStatus: body.data };
  const event = callbackEventByStatus.safeParse(json);
  if (!event.success) return invalid(event.error);
  return { ok: true, event: event.data };
}

function invalid(error: z.ZodError): CallbackEventReading {
  const issues = error.issues.map((i) => `${i.path.join(".") || "(body)"}${detail(i)}`);
  const message = `The body is not a callback event of spec 2.7: check ${[...new Set(issues)].join(", ")}`;
  return { ok: false, code: WEBHOOK_EVENT_INVALID, message };
}

/** A custom issue says what is missing; zod's own issues are named by their path alone. */
const detail = (issue: z.core.$ZodIssue) => (issue.code === "custom" ? ` (${issue.message})` : "");
