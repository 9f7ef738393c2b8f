/**
 * Typed errors of the platform calls: one class, {@link PlatformError}, with stable codes, and
 * the mapping from an HTTP error response to a code (spec 7). Zod-free.
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
