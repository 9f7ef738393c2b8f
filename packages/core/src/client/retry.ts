import {
  PLATFORM_ABORTED,
  PLATFORM_NETWORK_ERROR,
  PLATFORM_RATE_LIMITED,
  PLATFORM_SERVER_ERROR,
  PlatformError,
  isPlatformError,
} from "../errors/index.ts";

/**
 * `sleep(ms, signal)`: resolves after `ms`, rejects at once when `signal` aborts. Injectable so
 * tests of the spec 8 polling schedule run on a fake clock.
 *
 * @example
 * ```ts
 * const instant: Sleep = async () => {};
 * ```
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Retry settings of idempotent requests, GETs and cancel (spec 8: exponential back-off).
 *
 * @example
 * ```ts
 * createPlatformClient({ baseUrl, retry: { retries: 5, baseDelayMs: 250 } });
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. `0` disables retries. */
  retries?: number;
  /** First back-off step in ms, doubled per retry. Default 500. */
  baseDelayMs?: number;
  /** Cap of one back-off step in ms. Default 8,000. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` honoured, in ms. Default 60,000. A longer one ends the retries: the
   * error is thrown with `retryAfterMs` so the caller can reschedule instead of blocking.
   */
  maxRetryAfterMs?: number;
  /**
   * Whether a failed submit provably never reached the platform, so sending it again cannot
   * create a second task. Default {@link requestNeverSent}.
   */
  requestNeverSent?: (error: unknown) => boolean;
}

/**
 * Retry settings with every default applied (spec 8: back-off; see {@link retryPolicy}).
 *
 * @example
 * ```ts
 * const policy: RetryPolicy = retryPolicy({ retries: 1 });
 * ```
 */
export type RetryPolicy = Required<RetryOptions>;

/** Node/undici error codes raised before any byte of the request was sent. */
const NEVER_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function hasNeverSentCode(value: unknown, depth = 0): boolean {
  if (typeof value !== "object" || value === null || depth > 4) return false;
  // Happy eyeballs: one AggregateError for several addresses; every attempt must have failed so.
  const errors = (value as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0)
    return errors.every((item) => hasNeverSentCode(item, depth + 1));
  const code = (value as { code?: unknown }).code;
  if (typeof code === "string" && NEVER_SENT_CODES.has(code)) return true;
  return hasNeverSentCode((value as { cause?: unknown }).cause, depth + 1);
}

/**
 * Whether a failed request provably never reached the platform: the connection was refused, the
 * host name did not resolve, or the connection was never established (Node's fetch reports
 * `ECONNREFUSED`, `ENOTFOUND`, `EAI_AGAIN` or `UND_ERR_CONNECT_TIMEOUT` in `cause.code` of its
 * `TypeError`). A timeout, a reset, any HTTP status or a browser's opaque `TypeError` is
 * ambiguous and gives `false`. DESIGN: "a POST submit is never retried blindly" (spec 4.6: a
 * second submit is a second task).
 *
 * @example
 * ```ts
 * requestNeverSent(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })); // true
 * ```
 */
export function requestNeverSent(error: unknown): boolean {
  const fetchError = isPlatformError(error, PLATFORM_NETWORK_ERROR) ? error.cause : error;
  if (fetchError instanceof DOMException) return false; // our own timeout or an abort
  return hasNeverSentCode((fetchError as { cause?: unknown } | undefined)?.cause);
}

const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Whether an idempotent request may be sent again after `error`: no response (network error,
 * per-request timeout), HTTP 500/502/503/504, or a 429 rate limit. Never after a 4xx, a quota
 * error (spec 8: wait for running tasks instead), an abort or an invalid response.
 *
 * @example
 * ```ts
 * isRetryable(new PlatformError("PLATFORM_SERVER_ERROR", "x", { status: 503 })); // true
 * ```
 */
export function isRetryable(error: unknown): boolean {
  if (isPlatformError(error, [PLATFORM_NETWORK_ERROR, PLATFORM_RATE_LIMITED])) return true;
  return isPlatformError(error, PLATFORM_SERVER_ERROR) && RETRYABLE_STATUSES.has(error.status ?? 0);
}

/**
 * Applies the defaults to {@link RetryOptions}: 3 retries, 500 ms doubling to 8 s, `Retry-After`
 * up to 60 s, {@link requestNeverSent} for submits (spec 8: exponential back-off; the numbers are
 * Overture's).
 *
 * @example
 * ```ts
 * retryPolicy({ retries: 1 }).maxDelayMs; // 8000
 * ```
 */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  return {
    retries: options.retries ?? 3,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 8_000,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    requestNeverSent: options.requestNeverSent ?? requestNeverSent,
  };
}

/**
 * Exponential back-off with "equal jitter": half the step fixed, half random, so retries spread
 * out but never collapse to zero (spec 8: exponential back-off). `random` returns a number in
 * [0, 1).
 *
 * @example
 * ```ts
 * backoffDelay(2, retryPolicy(), Math.random); // between 1000 and 2000 ms
 * ```
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return step / 2 + (step / 2) * random();
}

/**
 * The default {@link Sleep}: a timer that ends at once, rejecting with the signal's reason, when
 * the signal aborts (spec 8 polling waits with it).
 *
 * @example
 * ```ts
 * await defaultSleep(5000, controller.signal);
 * ```
 */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Sleeps with `sleep`, turning an abort (during or right after the sleep) into
 * `PLATFORM_ABORTED` even when an injected `sleep` ignores the signal.
 */
export async function abortableSleep(
  sleep: Sleep,
  ms: number,
  signal: AbortSignal | undefined,
  taskId?: string,
): Promise<void> {
  const aborted = () =>
    new PlatformError(PLATFORM_ABORTED, "Aborted while waiting", { cause: signal?.reason, taskId });
  try {
    await sleep(ms, signal);
  } catch (error) {
    if (signal?.aborted) throw aborted();
    throw error;
  }
  if (signal?.aborted) throw aborted();
}

/**
 * What {@link withRetries} needs besides the attempt itself (spec 8: back-off with jitter).
 *
 * @example
 * ```ts
 * const context: RetryContext = { policy: retryPolicy(), canRetry: isRetryable,
 *   sleep: defaultSleep, random: Math.random };
 * ```
 */
export interface RetryContext {
  /** How many retries, and the back-off. */
  policy: RetryPolicy;
  /** Whether an error may be retried (for a submit: only one that provably never left). */
  canRetry: (error: unknown) => boolean;
  /** Waits between attempts; injectable so tests run instantly. */
  sleep: Sleep;
  /** Randomness of the jitter, in [0, 1). */
  random: () => number;
  /** Ends the waiting and the retries at once with `PLATFORM_ABORTED`. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `attempt` and, while `canRetry` allows and retries remain, runs it again after a back-off
 * (or the platform's `Retry-After`, when it is not longer than `maxRetryAfterMs`). An abort
 * during a back-off ends it at once with `PLATFORM_ABORTED` (spec 8: back-off).
 *
 * @example
 * ```ts
 * const task = await withRetries(() => getTask({ apiUrl, apiToken, taskId }), {
 *   policy: retryPolicy(), canRetry: isRetryable, sleep: defaultSleep, random: Math.random });
 * ```
 */
export async function withRetries<T>(attempt: () => Promise<T>, context: RetryContext): Promise<T> {
  const { policy } = context;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= policy.retries || !context.canRetry(error)) throw error;
      const retryAfterMs = error instanceof PlatformError ? error.retryAfterMs : undefined;
      if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) throw error;
      const delay = retryAfterMs ?? backoffDelay(retry, policy, context.random);
      await abortableSleep(context.sleep, delay, context.signal);
    }
  }
}
