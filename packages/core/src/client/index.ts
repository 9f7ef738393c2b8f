/**
 * A typed client for the platform (spec 4): OAuth and open endpoints, music submit, task query,
 * cancel, quota and balance, and waiting for a task by polling (spec 8), with retries that never repeat
 * a submit that may have arrived. `fetch`, clock, sleep and randomness are injectable.
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
