import { encodeMultipart, type FormParams } from "../form/index.ts";
import { musicForm } from "../music/index.ts";
import {
  cancelResponseSchema,
  quotaSchema,
  submitResponseSchema,
  taskSchema,
  type CancelResponse,
  type Quota,
  type SubmitResponse,
  type Task,
} from "../schemas/index.ts";
import { bearer, endpoint, sendPlatformRequest, type HttpOptions } from "../transport/index.ts";

/**
 * Settings of an asynchronous-task call (spec 4.6, 4.7).
 *
 * @example
 * ```ts
 * const settings: TaskEndpointOptions = { apiUrl: "http://127.0.0.1:4010", apiToken: proxyToken };
 * ```
 */
export interface TaskEndpointOptions extends HttpOptions {
  /** `{api_url}` of the platform. */
  apiUrl: string;
  /** `Authorization: Bearer <API_TOKEN>`: Overture passes the proxy access token (spec 5). */
  apiToken: string;
}

/**
 * A task (spec 2.6) whose `task_id` is known: filled from the request when the body leaves it out.
 *
 * @example
 * ```ts
 * const { task_id, status }: TaskWithId = await client.getTask(apiToken, taskId);
 * ```
 */
export type TaskWithId = Task & { task_id: string };

function checkTaskId(taskId: string): void {
  if (typeof taskId !== "string" || taskId === "")
    throw new TypeError("taskId must be a non-empty string");
}

/** A header value cannot carry CR, LF or other control characters. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Checks a callback address before it becomes the `X-WebHook` header: an absolute http(s) URL
 * without control characters. It is sent exactly as given (its query is signed as given,
 * spec 4.8), never re-serialised.
 */
function checkWebhookUrl(url: string): void {
  let protocol = "";
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (hasControlCharacter(url) || (protocol !== "https:" && protocol !== "http:"))
    throw new TypeError("webhookUrl must be an absolute http(s) URL without control characters");
}

/**
 * Submits a music-generation task: `POST {api_url}/v1/async/music/generations`, multipart form
 * by the reference client's rules with values sent byte for byte (spec 4.6), with `X-WebHook` when `webhookUrl` is given.
 * `params` go through `validateMusicParams` (`@overture/core/music`) first, so the platform gets
 * exactly what it accepts: defaults filled in, line breaks as LF, `lora_name` none as `""`,
 * `seeds` comma-joined. Invalid parameters throw a `MusicParamsError` before anything is sent. A
 * full concurrency quota is `QUOTA_EXHAUSTED` (spec 7).
 *
 * @example
 * ```ts
 * const { task_id } = await submitMusicTask({ apiUrl, apiToken, params: value,
 *   webhookUrl: "https://overture.example/webhooks/platform?k=abc" });
 * ```
 */
export async function submitMusicTask(
  options: TaskEndpointOptions & { params: FormParams; webhookUrl?: string | undefined },
): Promise<SubmitResponse> {
  const { body, contentType } = encodeMultipart(musicForm(options.params));
  const headers: Record<string, string> = {
    ...bearer(options.apiToken),
    "Content-Type": contentType,
  };
  if (options.webhookUrl !== undefined) {
    checkWebhookUrl(options.webhookUrl);
    headers["X-WebHook"] = options.webhookUrl;
  }
  return await sendPlatformRequest(
    {
      method: "POST",
      url: endpoint(options.apiUrl, "/v1/async/music/generations"),
      headers,
      body,
      schema: submitResponseSchema,
    },
    options,
  );
}

async function taskRequest(
  options: TaskEndpointOptions & { taskId: string },
  path: string,
): Promise<TaskWithId> {
  checkTaskId(options.taskId);
  const task = await sendPlatformRequest(
    {
      method: "GET",
      url: endpoint(options.apiUrl, path, options.taskId),
      headers: bearer(options.apiToken),
      schema: taskSchema,
      taskId: options.taskId,
    },
    options,
  );
  return { ...task, task_id: task.task_id ?? options.taskId };
}

/**
 * The unified task query, the address given as `urls.get`: `GET {api_url}/api/v1/task/{id}`
 * (spec 4.7). Returns at least `status` and, on success, `output`.
 *
 * @example
 * ```ts
 * const task = await getTask({ apiUrl, apiToken, taskId });
 * ```
 */
export function getTask(options: TaskEndpointOptions & { taskId: string }): Promise<TaskWithId> {
  return taskRequest(options, "/api/v1/task/{}");
}

/**
 * Task status: `GET {api_url}/v1/task/{id}/status` (spec 4.7; body beyond `status` not shown).
 *
 * @example
 * ```ts
 * const { status } = await getTaskStatus({ apiUrl, apiToken, taskId });
 * ```
 */
export function getTaskStatus(
  options: TaskEndpointOptions & { taskId: string },
): Promise<TaskWithId> {
  return taskRequest(options, "/v1/task/{}/status");
}

/**
 * Full task record (parameters, status, results): `GET {api_url}/v1/task/{id}` (spec 4.7).
 * Fields beyond those of {@link Task} are kept as the platform sends them.
 *
 * @example
 * ```ts
 * const record = await getTaskRecord({ apiUrl, apiToken, taskId });
 * ```
 */
export function getTaskRecord(
  options: TaskEndpointOptions & { taskId: string },
): Promise<TaskWithId> {
  return taskRequest(options, "/v1/task/{}");
}

/**
 * Cancels a `waiting` or `in_progress` task: `POST {api_url}/api/v1/task/{id}/cancel`
 * (spec 4.7, 3.1). The response body is not shown by the spec: any JSON object (or an empty
 * body, read as `{}`) is accepted and returned.
 *
 * @example
 * ```ts
 * await cancelTask({ apiUrl, apiToken, taskId });
 * ```
 */
export async function cancelTask(
  options: TaskEndpointOptions & { taskId: string },
): Promise<CancelResponse> {
  checkTaskId(options.taskId);
  return await sendPlatformRequest(
    {
      method: "POST",
      url: endpoint(options.apiUrl, "/api/v1/task/{}/cancel", options.taskId),
      headers: bearer(options.apiToken),
      schema: cancelResponseSchema,
      emptyBody: {},
      taskId: options.taskId,
    },
    options,
  );
}

/**
 * The account's available concurrency quota: `GET {api_url}/v1/tasks/available-quota`
 * (spec 4.7, 8). Read it with `readQuota` of `@overture/core/schemas`.
 *
 * @example
 * ```ts
 * const { available } = readQuota(await getAvailableQuota({ apiUrl, apiToken }));
 * ```
 */
export function getAvailableQuota(options: TaskEndpointOptions): Promise<Quota> {
  return sendPlatformRequest(
    {
      method: "GET",
      url: endpoint(options.apiUrl, "/v1/tasks/available-quota"),
      headers: bearer(options.apiToken),
      schema: quotaSchema,
    },
    options,
  );
}
