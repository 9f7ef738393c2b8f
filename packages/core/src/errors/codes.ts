/**
 * HTTP 401: wrong, invalid or expired token (spec 7).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_UNAUTHORIZED)) await refreshAndRetry();
 * ```
 */
export const PLATFORM_UNAUTHORIZED = "PLATFORM_UNAUTHORIZED";

/**
 * HTTP 403 that is not about quota (spec 7 shows no 403; kept apart from 401).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_FORBIDDEN)) showNoAccess();
 * ```
 */
export const PLATFORM_FORBIDDEN = "PLATFORM_FORBIDDEN";

/**
 * HTTP 404: unknown task, token or namespace (spec 4.5, 4.7 paths).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_NOT_FOUND)) markTaskGone(error.taskId);
 * ```
 */
export const PLATFORM_NOT_FOUND = "PLATFORM_NOT_FOUND";

/**
 * HTTP 400 (missing or malformed parameter, spec 7), and any other 4xx not listed here; the
 * message carries the body's own message.
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_BAD_REQUEST)) form.setError("root", error.message);
 * ```
 */
export const PLATFORM_BAD_REQUEST = "PLATFORM_BAD_REQUEST";

/**
 * The concurrency quota is full: no new task until one ends (spec 7, 8). Detected from the
 * body (`quota_exceeded`, or a 4xx other than 401 and 404 whose message names the quota or
 * concurrency, in English or Chinese).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, QUOTA_EXHAUSTED)) queue.push(params);
 * ```
 */
export const QUOTA_EXHAUSTED = "QUOTA_EXHAUSTED";

/**
 * HTTP 429 that is not about quota: slow down, see `retryAfterMs` (spec 8: rate limits not
 * shown).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_RATE_LIMITED)) await sleep(error.retryAfterMs ?? 5_000);
 * ```
 */
export const PLATFORM_RATE_LIMITED = "PLATFORM_RATE_LIMITED";

/**
 * HTTP 5xx (spec 7 shows none; GETs are retried after 500, 502, 503 and 504).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_SERVER_ERROR)) log.warn({ status: error.status });
 * ```
 */
export const PLATFORM_SERVER_ERROR = "PLATFORM_SERVER_ERROR";

/**
 * No HTTP response: connection refused or reset, DNS failure, per-request timeout (spec 8
 * asks for timeouts).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_NETWORK_ERROR)) console.warn("platform unreachable", error.cause);
 * ```
 */
export const PLATFORM_NETWORK_ERROR = "PLATFORM_NETWORK_ERROR";

/**
 * The caller's `AbortSignal` fired (spec 8 polling: one signal ends the whole wait).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_ABORTED)) return; // the user cancelled
 * ```
 */
export const PLATFORM_ABORTED = "PLATFORM_ABORTED";

/**
 * The caller's overall deadline passed, for example while waiting for a task (spec 8:
 * tasks usually take 1 to 10 minutes); `taskId` names the task.
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_DEADLINE_EXCEEDED)) resumeLater(error.taskId);
 * ```
 */
export const PLATFORM_DEADLINE_EXCEEDED = "PLATFORM_DEADLINE_EXCEEDED";

/**
 * A 2xx response whose body is not JSON or does not match the resource's schema (spec 2).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, PLATFORM_INVALID_RESPONSE)) log.error({ body: error.body });
 * ```
 */
export const PLATFORM_INVALID_RESPONSE = "PLATFORM_INVALID_RESPONSE";

/**
 * The token endpoint refused the code or refresh token (RFC 6749 `invalid_grant`; spec 3.2:
 * a code is single use; spec 7 does not show the token errors): sign in again.
 *
 * @example
 * ```ts
 * if (isPlatformError(error, OAUTH_INVALID_GRANT)) await revokeSession();
 * ```
 */
export const OAUTH_INVALID_GRANT = "OAUTH_INVALID_GRANT";

/**
 * The token endpoint refused the client credentials (RFC 6749 `invalid_client` or
 * `unauthorized_client`, or a 401; spec 4.2): a configuration problem (client id, client secret
 * or client authentication mode), never retried; the message says so.
 *
 * @example
 * ```ts
 * if (isPlatformError(error, OAUTH_INVALID_CLIENT)) alertOperator("check CLIENT_SECRET");
 * ```
 */
export const OAUTH_INVALID_CLIENT = "OAUTH_INVALID_CLIENT";

/**
 * Every stable code a `PlatformError` can carry (spec 7 errors, and those the spec leaves open).
 *
 * @example
 * ```ts
 * PLATFORM_ERROR_CODES.includes(error.code); // true
 * ```
 */
export const PLATFORM_ERROR_CODES = [
  PLATFORM_UNAUTHORIZED,
  PLATFORM_FORBIDDEN,
  PLATFORM_NOT_FOUND,
  PLATFORM_BAD_REQUEST,
  QUOTA_EXHAUSTED,
  PLATFORM_RATE_LIMITED,
  PLATFORM_SERVER_ERROR,
  PLATFORM_NETWORK_ERROR,
  PLATFORM_ABORTED,
  PLATFORM_DEADLINE_EXCEEDED,
  PLATFORM_INVALID_RESPONSE,
  OAUTH_INVALID_GRANT,
  OAUTH_INVALID_CLIENT,
] as const;

/**
 * A stable error code (see {@link PLATFORM_ERROR_CODES}; spec 7).
 *
 * @example
 * ```ts
 * const retryable: PlatformErrorCode[] = ["PLATFORM_NETWORK_ERROR", "PLATFORM_RATE_LIMITED"];
 * ```
 */
export type PlatformErrorCode = (typeof PLATFORM_ERROR_CODES)[number];
