/** HTTP 401: wrong, invalid or expired token (spec 7). */
export const PLATFORM_UNAUTHORIZED = "PLATFORM_UNAUTHORIZED";
/** HTTP 403 that is not about quota. */
export const PLATFORM_FORBIDDEN = "PLATFORM_FORBIDDEN";
/** HTTP 404: unknown task, token or namespace. */
export const PLATFORM_NOT_FOUND = "PLATFORM_NOT_FOUND";
/** HTTP 400 (missing or malformed parameter, spec 7), and any other 4xx not listed here. */
export const PLATFORM_BAD_REQUEST = "PLATFORM_BAD_REQUEST";
/** The concurrency quota is full: no new task until one ends (spec 7, 8). */
export const QUOTA_EXHAUSTED = "QUOTA_EXHAUSTED";
/** HTTP 429 that is not about quota: slow down, see `retryAfterMs`. */
export const PLATFORM_RATE_LIMITED = "PLATFORM_RATE_LIMITED";
/** HTTP 5xx. */
export const PLATFORM_SERVER_ERROR = "PLATFORM_SERVER_ERROR";
/** No HTTP response: connection refused or reset, DNS failure, per-request timeout. */
export const PLATFORM_NETWORK_ERROR = "PLATFORM_NETWORK_ERROR";
/** The caller's `AbortSignal` fired. */
export const PLATFORM_ABORTED = "PLATFORM_ABORTED";
/** The caller's overall deadline passed (for example while waiting for a task). */
export const PLATFORM_DEADLINE_EXCEEDED = "PLATFORM_DEADLINE_EXCEEDED";
/** A 2xx response whose body is not JSON or does not match the resource's schema (spec 2). */
export const PLATFORM_INVALID_RESPONSE = "PLATFORM_INVALID_RESPONSE";
/** The token endpoint refused the code or refresh token (RFC 6749 `invalid_grant`). */
export const OAUTH_INVALID_GRANT = "OAUTH_INVALID_GRANT";
/** The token endpoint refused the client credentials (RFC 6749 `invalid_client`, or a 401). */
export const OAUTH_INVALID_CLIENT = "OAUTH_INVALID_CLIENT";

/**
 * Every stable code a {@link PlatformError} can carry.
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

/** A stable error code (see {@link PLATFORM_ERROR_CODES}). */
export type PlatformErrorCode = (typeof PLATFORM_ERROR_CODES)[number];
