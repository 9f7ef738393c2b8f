/**
 * Typed errors of the platform calls: one class, {@link PlatformError}, with stable codes, and
 * the mapping from an HTTP error response to a code (spec 7). Zod-free.
 *
 * ## Choices where the spec is silent
 *
 * Quota detection: a body code containing `quota` on any status, or a 4xx other than 401 and 404
 * whose message mentions quota or concurrency (`quota`, `concurren`, `配额`, `并发`). Bodies read:
 * `{ error, message }`, `{ error, error_description }`, `{ message }`, `{ error_message }` (the
 * live platform's), `{ error: { code, message } }`, `{ code, message }`, `{ detail }` (a string or
 * a list of `{ msg }`), short plain text; HTML is ignored; messages are cut at 500 characters and
 * name `METHOD /path`, never the query or a token.
 *
 * @packageDocumentation
 */
export {
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
  PLATFORM_ERROR_CODES,
} from "./codes.ts";
export type { PlatformErrorCode } from "./codes.ts";
export { PlatformError, isPlatformError, withTaskId } from "./platform-error.ts";
export type { PlatformErrorOptions } from "./platform-error.ts";
export { readErrorBody, errorFromResponse } from "./response.ts";
export type { ErrorBodyReading, ErrorResponse } from "./response.ts";
