import {
  getAccessTokenDetail,
  getUserInfo,
  listAccessTokens,
  exchangeCode,
  refreshGrant,
  type ClientAuth,
} from "../oauth/index.ts";
import type {
  AccessTokenDetail,
  AccessTokenMeta,
  Balance,
  CancelResponse,
  Quota,
  SubmitResponse,
  TokenResponse,
  UserInfo,
} from "../schemas/index.ts";
import type { FormParams } from "../form/index.ts";
import { getBalance } from "./balance.ts";
import { DEFAULT_REQUEST_TIMEOUT_MS, type HttpOptions } from "../transport/index.ts";
import {
  defaultSleep,
  isRetryable,
  retryPolicy,
  withRetries,
  type RetryOptions,
  type Sleep,
} from "./retry.ts";
import * as tasks from "./tasks.ts";
import type { TaskWithId } from "./tasks.ts";
import {
  waitForTaskWith,
  watchTaskWith,
  type PollOptions,
  type WaitForTaskOptions,
  type WatchTaskOptions,
} from "./watch.ts";

/**
 * Settings of {@link createPlatformClient} (spec 4: `{base_url}` and `{api_url}`; spec 5
 * credentials; spec 8 retries and polling).
 *
 * @example
 * ```ts
 * const options: PlatformClientOptions = { baseUrl: "http://127.0.0.1:4010",
 *   clientId: "overture-local", clientSecret, retry: { retries: 2 } };
 * ```
 */
export interface PlatformClientOptions {
  /** `{base_url}`: authorization page, token and open endpoints (`/oauth`, `/api/open`). */
  baseUrl: string;
  /** `{api_url}`: asynchronous-task endpoints. Defaults to `baseUrl`. */
  apiUrl?: string | undefined;
  /** Needed for `exchangeCode` and `refreshGrant` only. */
  clientId?: string | undefined;
  /** Needed for `exchangeCode` and `refreshGrant` only. Server-side only (spec 1 rule 6). */
  clientSecret?: string | undefined;
  /** Client authentication at the token endpoint: `"basic"` (default) or `"form"` (spec 4.2). */
  clientAuth?: ClientAuth | undefined;
  /** `fetch` to use. Defaults to the global one. */
  fetch?: typeof fetch | undefined;
  /** Clock in ms since the epoch. Defaults to `Date.now`. */
  now?: (() => number) | undefined;
  /** Sleep used between retries and polls; must end at once when its signal aborts. */
  sleep?: Sleep | undefined;
  /** Random number in [0, 1) for jitter. Defaults to `Math.random`. */
  random?: (() => number) | undefined;
  /** Retries of idempotent requests and the "never sent" test of submits. */
  retry?: RetryOptions | undefined;
  /** Per-request timeout in ms. Default 30,000; `0` or `Infinity` disables it. */
  timeoutMs?: number | undefined;
  /** Default polling schedule of `waitForTask` / `watchTask`. */
  poll?: PollOptions | undefined;
}

/**
 * Per-call options of a {@link PlatformClient} method (spec 8: timeouts).
 *
 * @example
 * ```ts
 * await client.getTask(apiToken, taskId, { signal: controller.signal, timeoutMs: 5_000 });
 * ```
 */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Per-request timeout of this call, over the client's. */
  timeoutMs?: number | undefined;
  /** Retries of this call, over the client's `retry.retries` (idempotent calls and submit). */
  retries?: number | undefined;
}

/**
 * The client returned by {@link createPlatformClient}: one method per endpoint of spec 4, plus
 * `waitForTask` / `watchTask` (spec 8 polling).
 *
 * @example
 * ```ts
 * const platform: PlatformClient = createPlatformClient({ baseUrl });
 * ```
 */
export interface PlatformClient {
  /** Exchanges an authorization code for tokens (spec 4.2; never retried: a code works once).
   * Needs `clientId` and `clientSecret`; see `exchangeCode` of `@overture/core/oauth`. */
  exchangeCode(input: { code: string; redirectUri: string } & CallOptions): Promise<TokenResponse>;
  /** Refreshes a grant (spec 4.2; never retried: the old refresh token may be spent). */
  refreshGrant(input: { refreshToken: string } & CallOptions): Promise<TokenResponse>;
  /** The signed-in user (spec 4.3), with retries. */
  getUserInfo(accessToken: string, options?: CallOptions): Promise<UserInfo>;
  /** The user's access tokens in a namespace, metadata only (spec 4.4), with retries. */
  listAccessTokens(
    accessToken: string,
    namespace: string,
    options?: CallOptions,
  ): Promise<AccessTokenMeta[]>;
  /** One access token's detail with a short-lived proxy token (spec 4.5), with retries. */
  getAccessTokenDetail(
    accessToken: string,
    namespace: string,
    id: number | string,
    options?: CallOptions,
  ): Promise<AccessTokenDetail>;
  /** Validates the music parameters and submits the task (spec 4.6), with `X-WebHook` when
   * `webhookUrl` is given. Retried only when the request provably never left: a second
   * submit would be a second billed task. */
  submitMusicTask(
    apiToken: string,
    params: FormParams,
    options?: CallOptions & { webhookUrl?: string | undefined },
  ): Promise<SubmitResponse>;
  /** The unified task query, `urls.get` (spec 4.7), with retries. */
  getTask(apiToken: string, taskId: string, options?: CallOptions): Promise<TaskWithId>;
  /** The task's status endpoint (spec 4.7), with retries. */
  getTaskStatus(apiToken: string, taskId: string, options?: CallOptions): Promise<TaskWithId>;
  /** The full task record (spec 4.7), with retries. */
  getTaskRecord(apiToken: string, taskId: string, options?: CallOptions): Promise<TaskWithId>;
  /** Cancels a waiting or running task (spec 4.7, 3.1); retried, as cancelling twice ends in
   * the same state. */
  cancelTask(apiToken: string, taskId: string, options?: CallOptions): Promise<CancelResponse>;
  /** The account's free task slots (spec 4.7, 8), with retries. */
  getAvailableQuota(apiToken: string, options?: CallOptions): Promise<Quota>;
  /** The account's balance (not in the spec; seen live), with retries. */
  getBalance(apiToken: string, options?: CallOptions): Promise<Balance>;
  /** Polls until the task ends and returns it (spec 8 polling); a failure or a cancel is
   * returned too, a deadline or an abort throws. See `waitForTaskWith`. */
  waitForTask(apiToken: string, taskId: string, options?: WaitForTaskOptions): Promise<TaskWithId>;
  /** Polls and yields the task on each status change until it ends (spec 8). See
   * `watchTaskWith`. */
  watchTask(
    apiToken: string,
    taskId: string,
    options?: WatchTaskOptions,
  ): AsyncIterable<TaskWithId>;
}

/**
 * A client for every endpoint of the spec, with injectable `fetch`, clock, sleep and randomness.
 *
 * Failures are `PlatformError`s with stable codes (`@overture/core/errors`). Retries, with
 * exponential back-off and jitter, honouring `Retry-After` up to `retry.maxRetryAfterMs`:
 *
 * - GETs and `cancelTask` are retried after no response, HTTP 500/502/503/504 or a 429 rate
 *   limit. Cancel counts as idempotent: cancelling twice ends in the same state (spec 3.1). If a
 *   retried cancel answers 4xx, the first attempt may have taken effect: query the task.
 * - `submitMusicTask` is retried only when the request provably never left
 *   (`retry.requestNeverSent`, default: connection refused or DNS failure), never after a
 *   timeout, a reset or any HTTP answer: a second submit could create a second billed task.
 * - `exchangeCode` and `refreshGrant` are never retried: a code is single use (spec 3.2).
 *
 * @example
 * ```ts
 * const platform = createPlatformClient({ baseUrl: "http://127.0.0.1:4010",
 *   clientId: "overture-local", clientSecret: process.env.CLIENT_SECRET });
 * const { task_id } = await platform.submitMusicTask(proxyToken, value, { webhookUrl });
 * const task = await platform.waitForTask(proxyToken, task_id, { timeoutMs: 15 * 60_000 });
 * ```
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const baseUrl = options.baseUrl;
  const apiUrl = options.apiUrl ?? options.baseUrl;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const policy = retryPolicy(options.retry);
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const http = (call: CallOptions = {}): HttpOptions => ({
    fetch: options.fetch,
    now,
    signal: call.signal,
    timeoutMs: call.timeoutMs ?? defaultTimeoutMs,
  });
  const retrying = <T>(
    call: CallOptions | undefined,
    canRetry: (error: unknown) => boolean,
    attempt: () => Promise<T>,
  ) =>
    withRetries(attempt, {
      policy: { ...policy, retries: call?.retries ?? policy.retries },
      canRetry,
      sleep,
      random,
      signal: call?.signal,
    });
  const idempotent = <T>(call: CallOptions | undefined, attempt: () => Promise<T>) =>
    retrying(call, isRetryable, attempt);
  const credentials = (method: string) => {
    if (options.clientId === undefined || options.clientSecret === undefined)
      throw new TypeError(`${method} needs clientId and clientSecret in createPlatformClient`);
    return {
      baseUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      clientAuth: options.clientAuth,
    };
  };
  const task = (apiToken: string, call?: CallOptions) => ({ apiUrl, apiToken, ...http(call) });
  const watchDeps = (apiToken: string, taskId: string, requestTimeoutMs?: number) => ({
    getTaskOnce: (call: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined }) =>
      tasks.getTask({ ...task(apiToken, call), taskId }),
    now,
    sleep,
    random,
    requestTimeoutMs: requestTimeoutMs ?? defaultTimeoutMs,
    poll: options.poll,
  });

  return {
    exchangeCode: async ({ code, redirectUri, ...call }) =>
      exchangeCode({ ...credentials("exchangeCode"), ...http(call), code, redirectUri }),
    refreshGrant: async ({ refreshToken, ...call }) =>
      refreshGrant({ ...credentials("refreshGrant"), ...http(call), refreshToken }),
    getUserInfo: (accessToken, call) =>
      idempotent(call, () => getUserInfo({ baseUrl, accessToken, ...http(call) })),
    listAccessTokens: (accessToken, namespace, call) =>
      idempotent(call, () => listAccessTokens({ baseUrl, accessToken, namespace, ...http(call) })),
    getAccessTokenDetail: (accessToken, namespace, id, call) =>
      idempotent(call, () =>
        getAccessTokenDetail({ baseUrl, accessToken, namespace, id, ...http(call) }),
      ),
    submitMusicTask: (apiToken, params, call) =>
      retrying(call, policy.requestNeverSent, () =>
        tasks.submitMusicTask({ ...task(apiToken, call), params, webhookUrl: call?.webhookUrl }),
      ),
    getTask: (apiToken, taskId, call) =>
      idempotent(call, () => tasks.getTask({ ...task(apiToken, call), taskId })),
    getTaskStatus: (apiToken, taskId, call) =>
      idempotent(call, () => tasks.getTaskStatus({ ...task(apiToken, call), taskId })),
    getTaskRecord: (apiToken, taskId, call) =>
      idempotent(call, () => tasks.getTaskRecord({ ...task(apiToken, call), taskId })),
    cancelTask: (apiToken, taskId, call) =>
      idempotent(call, () => tasks.cancelTask({ ...task(apiToken, call), taskId })),
    getAvailableQuota: (apiToken, call) =>
      idempotent(call, () => tasks.getAvailableQuota(task(apiToken, call))),
    getBalance: (apiToken, call) => idempotent(call, () => getBalance(task(apiToken, call))),
    waitForTask: (apiToken, taskId, wait) =>
      waitForTaskWith(taskId, watchDeps(apiToken, taskId, wait?.requestTimeoutMs), wait),
    watchTask: (apiToken, taskId, wait) =>
      watchTaskWith(taskId, watchDeps(apiToken, taskId, wait?.requestTimeoutMs), wait),
  };
}
