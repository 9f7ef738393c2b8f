/**
 * A typed client for the platform (spec 4): OAuth and open endpoints, music submit, task query,
 * cancel, quota and balance, and waiting for a task by polling (spec 8), with retries that never repeat
 * a submit that may have arrived. `fetch`, clock, sleep and randomness are injectable.
 *
 * ## Choices where the spec is silent
 *
 * - Retries: idempotent requests (GETs, and cancel, which ends in the same state however often it
 *   is sent) are retried up to 3 times after no response, HTTP 500/502/503/504 or a 429, with
 *   exponential back-off from 500 ms doubling to an 8 s cap and "equal jitter"; a `Retry-After`
 *   is honoured up to 60 s, and a longer one is thrown with `retryAfterMs` instead of blocking.
 * - A submit is retried only when the request provably never left (every connection attempt
 *   failed with `ECONNREFUSED`, `ENOTFOUND`, `EAI_AGAIN` or `UND_ERR_CONNECT_TIMEOUT`): a timeout,
 *   a reset or any HTTP answer is ambiguous, and a second submit is a second billed task. The code
 *   exchange and the refresh are never retried. Each request times out after 30 s.
 * - Polling (spec 8 says 5–10 s with back-off): the first poll at once, then 5 s, ×1.5 per poll
 *   without a change up to 10 s, back to 5 s after a change, up to 20% jitter downwards; after a
 *   failed poll the interval doubles per consecutive failure up to 60 s. One `AbortSignal` and
 *   one deadline (default 30 min) for the whole wait: an abort throws `PLATFORM_ABORTED`, the
 *   deadline `PLATFORM_DEADLINE_EXCEEDED` with the last status seen.
 * - `apiUrl` defaults to `baseUrl`; path segments are percent-encoded; an empty task id is a
 *   `TypeError` before sending; the `X-WebHook` URL must be an absolute http(s) URL and is sent
 *   exactly as given; an empty cancel response reads as `{}`.
 *
 * @packageDocumentation
 */
export { createPlatformClient } from "./platform-client.ts";
export type { PlatformClient, PlatformClientOptions, CallOptions } from "./platform-client.ts";
export {
  submitMusicTask,
  getTask,
  getTaskStatus,
  getTaskRecord,
  cancelTask,
  getAvailableQuota,
} from "./tasks.ts";
export type { TaskEndpointOptions, TaskWithId } from "./tasks.ts";
export { getBalance } from "./balance.ts";
export {
  sendPlatformRequest,
  parseRetryAfter,
  isRequestTimeout,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from "../transport/index.ts";
export type { HttpOptions, PlatformRequest } from "../transport/index.ts";
export {
  requestNeverSent,
  isRetryable,
  retryPolicy,
  backoffDelay,
  defaultSleep,
  withRetries,
} from "./retry.ts";
export type { RetryOptions, RetryPolicy, RetryContext, Sleep } from "./retry.ts";
export { watchTaskWith, waitForTaskWith, DEFAULT_WAIT_TIMEOUT_MS } from "./watch.ts";
export type {
  PollOptions,
  WatchTaskOptions,
  WaitForTaskOptions,
  WatchDependencies,
} from "./watch.ts";
export { endpoint } from "../transport/index.ts";
