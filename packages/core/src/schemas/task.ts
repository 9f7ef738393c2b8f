import { z } from "zod";
import { numberish } from "./numbers.ts";

/**
 * Usage of a task (spec 2.6): `unit`, `quantity`, `prompt_tokens`, `completion_tokens`,
 * `resolution`. The spec says it "may be empty", so `{}`, `null` and `""` all parse (`""` as
 * `null`); every field is optional, numbers accept numeric strings, unknown fields are kept.
 *
 * @example
 * ```ts
 * usageInfoSchema.parse({ unit: "second", quantity: 60 });
 * usageInfoSchema.parse(""); // null
 * ```
 */
export const usageInfoSchema = z.preprocess(
  // "" is the spec's "empty" too; read before the object, so a bad field is still named.
  (value) => (value === "" ? null : value),
  z
    .looseObject({
      unit: z.string().nullish(),
      quantity: numberish.nullish(),
      prompt_tokens: numberish.nullish(),
      completion_tokens: numberish.nullish(),
      resolution: z.unknown().optional(),
    })
    .nullable(),
);

/**
 * Parsed {@link usageInfoSchema} (spec 2.6); `null` when the platform sends none.
 *
 * @example
 * ```ts
 * const seconds = (task.usage_info as UsageInfo | undefined)?.quantity;
 * ```
 *
 * @useDeclaredType
 */
export type UsageInfo = z.infer<typeof usageInfoSchema>;

/**
 * Error information of a failed task: a plain string, or an object with `code` and `message`.
 * The spec only says the query endpoint "returns error information" (spec 7); both shapes are
 * seen in practice.
 *
 * @example
 * ```ts
 * taskErrorSchema.parse({ code: "nsfw", message: "Blocked" });
 * ```
 */
export const taskErrorSchema = z.union([
  z.string(),
  z.looseObject({
    code: z.union([z.string(), z.number()]).nullish(),
    message: z.string().nullish(),
  }),
]);

/**
 * Parsed {@link taskErrorSchema} (spec 7: the error information of a failed task).
 *
 * @example
 * ```ts
 * const error: TaskError = { code: "nsfw", message: "Blocked" };
 * ```
 *
 * @useDeclaredType
 */
export type TaskError = z.infer<typeof taskErrorSchema>;

/**
 * Output of a task (spec 2.6). Music yields `file_url` (some live outputs name it `url`: read it
 * with {@link taskResultUrl}); a failed task may carry `error`. Every field is optional and
 * unknown fields are kept (other task kinds return other result objects).
 *
 * @example
 * ```ts
 * taskOutputSchema.parse({ file_url: "https://cdn.example/song.mp3" });
 * ```
 */
export const taskOutputSchema = z.looseObject({
  file_url: z.string().nullish(),
  url: z.string().nullish(),
  error: taskErrorSchema.nullish(),
});

/**
 * Parsed {@link taskOutputSchema} (spec 2.6).
 *
 * @example
 * ```ts
 * const output: TaskOutput = { file_url: "https://cdn.example/song.mp3" };
 * ```
 *
 * @useDeclaredType
 */
export type TaskOutput = z.infer<typeof taskOutputSchema>;

/**
 * Addresses of a task: `get` (unified query, spec 4.6, 4.7) and, when given, `cancel`.
 *
 * @example
 * ```ts
 * taskUrlsSchema.parse({ get: "https://api.test/api/v1/task/t1" });
 * ```
 */
export const taskUrlsSchema = z.looseObject({
  get: z.string().optional(),
  cancel: z.string().optional(),
});

/**
 * Response of the music submit endpoint (spec 4.6): `task_id` and `urls.get`. `urls` is optional
 * here: the query address can always be built from the task id (spec 4.7), so a response without
 * it is still usable.
 *
 * @example
 * ```ts
 * const { task_id } = submitResponseSchema.parse(body);
 * ```
 */
export const submitResponseSchema = z.looseObject({
  task_id: z.string().min(1),
  urls: taskUrlsSchema.optional(),
});

/**
 * Parsed {@link submitResponseSchema} (spec 4.6).
 *
 * @example
 * ```ts
 * const { task_id }: SubmitResponse = await client.submitMusicTask(apiToken, params);
 * ```
 *
 * @useDeclaredType
 */
export type SubmitResponse = z.infer<typeof submitResponseSchema>;

/**
 * Below this a task timestamp is read as seconds: 1e11 ms is March 1973, and 1e11 s is far
 * beyond any date the platform sends.
 */
const SECONDS_BELOW = 1e11;

/**
 * A timestamp in ms since the epoch, missing or `null` while it does not apply yet. The live
 * records carry ms (13 digits), but some endpoint may answer in seconds (10 digits, seen
 * normalised by another client): a value below {@link SECONDS_BELOW} is read as seconds and
 * converted, so a consumer never places a task in January 1970.
 */
const timestampMs = numberish
  .nullish()
  .transform((value) =>
    typeof value === "number" && value > 0 && value < SECONDS_BELOW
      ? Math.round(value * 1000)
      : value,
  );

/**
 * A task as the query, status and record endpoints return it (spec 2.6, 4.7). Only `status` is
 * required: the spec promises "at least `status` and, on success, `output`". `status` stays a
 * string, so an unknown status parses and is reported by `mergeStatus` of `@overture/core/task`
 * instead of crashing. Timestamps (`created_at`, `started_at`, `completed_at`) come out in ms,
 * whether the platform sent ms (13 digits) or seconds (10 digits, converted).
 *
 * @example
 * ```ts
 * const task = taskSchema.parse(body);
 * if (task.status === "success") play(task.output?.file_url);
 * ```
 */
export const taskSchema = z.looseObject({
  task_id: z.string().min(1).optional(),
  status: z.string().min(1),
  output: taskOutputSchema.nullish(),
  usage_info: usageInfoSchema.optional(),
  urls: taskUrlsSchema.nullish(),
  error: taskErrorSchema.nullish(),
  /** Some live failures also carry their text here (docs/platform-facts.md). */
  message: z.string().nullish(),
  created_at: timestampMs,
  started_at: timestampMs,
  completed_at: timestampMs,
});

/**
 * Parsed {@link taskSchema} (spec 2.6, 4.7).
 *
 * @example
 * ```ts
 * const task: Task = await client.getTask(apiToken, taskId);
 * ```
 *
 * @useDeclaredType
 */
export type Task = z.infer<typeof taskSchema>;

/**
 * Body of a webhook callback as it comes over the wire (spec 2.7, 4.8). `event_id`, `task_id` and
 * `status` are required: without them a receiver can neither de-duplicate nor route the event.
 * `status` stays a string, so a status the spec does not list parses too (for `mergeStatus` of
 * `@overture/core/task` to report). The receivers of `@overture/core/receiver` go further: they
 * hand over a `CallbackEvent` that narrows on `status`.
 *
 * @example
 * ```ts
 * const event = callbackEventSchema.parse(JSON.parse(rawBody));
 * ```
 */
export const callbackEventSchema = z.looseObject({
  event_id: z.string().min(1),
  task_id: z.string().min(1),
  status: z.string().min(1),
  output: taskOutputSchema.nullish(),
  usage_info: usageInfoSchema.optional(),
});

/**
 * Parsed {@link callbackEventSchema}: a callback body as it comes over the wire, any status
 * (spec 2.7).
 *
 * @example
 * ```ts
 * const body: CallbackEventBody = callbackEventSchema.parse(JSON.parse(rawBody));
 * await store.once(body.event_id, () => apply(body));
 * ```
 *
 * @useDeclaredType
 */
export type CallbackEventBody = z.infer<typeof callbackEventSchema>;

/**
 * Response of the cancel endpoint (spec 4.7: body not shown). Anything that is an object parses;
 * a `status`, when present, must be a string.
 *
 * @example
 * ```ts
 * cancelResponseSchema.parse({}); // {}
 * ```
 */
export const cancelResponseSchema = z.looseObject({
  task_id: z.string().optional(),
  status: z.string().optional(),
});

/**
 * Parsed {@link cancelResponseSchema} (spec 4.7: body not shown).
 *
 * @example
 * ```ts
 * const answer: CancelResponse = await client.cancelTask(apiToken, taskId);
 * ```
 *
 * @useDeclaredType
 */
export type CancelResponse = z.infer<typeof cancelResponseSchema>;

function errorText(error: TaskError | null | undefined): string | undefined {
  if (error == null) return undefined;
  if (typeof error === "string") return error.trim() || undefined;
  const message = error.message?.trim();
  const code = error.code == null ? undefined : String(error.code);
  if (!message) return code;
  return code ? `${message} (${code})` : message;
}

/**
 * The human-readable error of a failed task (spec 7: "the query endpoint returns error
 * information"): `output.error`, else the task's top-level `error`, else its top-level `message`
 * (seen live), as a string (`"message (code)"` for the object form, and for a top-level string
 * `error` beside a `message`: the official samples' code and text). `undefined` when the task
 * carries none.
 *
 * @example
 * ```ts
 * taskErrorMessage({ status: "failure", output: { error: { code: "nsfw", message: "Blocked" } } });
 * // "Blocked (nsfw)"
 * ```
 */
export function taskErrorMessage(
  task: Pick<Task, "output" | "error"> & { message?: string | null | undefined },
): string | undefined {
  const { error, message } = task;
  const codeAndText =
    typeof error === "string" && message?.trim() ? { code: error, message } : error;
  return errorText(task.output?.error) ?? errorText(codeAndText) ?? errorText(message);
}

/**
 * When a pre-signed result link stops working, in ms since the epoch, read from its own query:
 * `X-Amz-Date` (`YYYYMMDDTHHMMSSZ`) plus `X-Amz-Expires` seconds (S3-style; also the
 * `X-Goog-` pair). Live links carry `X-Amz-Expires=604800`, 7 days (docs/platform-facts.md).
 * `undefined` when the link is not signed that way, so the caller keeps its own estimate
 * (spec 8: "usually 24 hours").
 *
 * @example
 * ```ts
 * signedLinkExpiresAt("https://s3.example/a.wav?X-Amz-Date=20260101T000000Z&X-Amz-Expires=604800");
 * // Date.UTC(2026, 0, 8)
 * ```
 */
export function signedLinkExpiresAt(link: string): number | undefined {
  let query: URLSearchParams;
  try {
    query = new URL(link).searchParams;
  } catch {
    return undefined;
  }
  for (const prefix of ["X-Amz-", "X-Goog-"]) {
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(
      query.get(`${prefix}Date`) ?? "",
    );
    const expires = query.get(`${prefix}Expires`) ?? "";
    if (!date || !/^\d{1,9}$/.test(expires)) continue;
    const [, year, month, day, hour, minute, second] = date.map(Number);
    const issued = Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second);
    if (Number.isNaN(issued)) continue;
    return issued + Number(expires) * 1000;
  }
  return undefined;
}

/**
 * The result link of a finished task (spec 2.6): `output.file_url`, or `output.url`, which some
 * live outputs use instead (docs/platform-facts.md). `undefined` when the output has neither.
 * The link is signed and expires (about 7 days live, "usually 24 hours" in spec 8).
 *
 * @example
 * ```ts
 * taskResultUrl({ output: { url: "https://cdn.example/song.wav?X-Amz-Expires=604800" } });
 * // "https://cdn.example/song.wav?X-Amz-Expires=604800"
 * ```
 */
export function taskResultUrl(task: {
  output?: { file_url?: unknown; url?: unknown } | null | undefined;
}): string | undefined {
  const { file_url: fileUrl, url } = task.output ?? {};
  if (typeof fileUrl === "string" && fileUrl.trim() !== "") return fileUrl;
  if (typeof url === "string" && url.trim() !== "") return url;
  return undefined;
}
