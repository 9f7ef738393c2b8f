import { isPlatformError } from "@overture/core/errors";
import { ApiError } from "../../lib/errors.ts";
import { PLATFORM_UNAVAILABLE, REAUTHENTICATION_REQUIRED } from "../../schemas/error-codes.ts";

/**
 * The errors the credential services throw. Routes let them through to the error handler, so the
 * extension sees one stable code per situation whichever route it called.
 */

/** The platform grant is gone (revoked, refused on refresh, never stored): sign in again. */
export function reauthenticationRequired(reason?: string): ApiError {
  return new ApiError(
    401,
    REAUTHENTICATION_REQUIRED,
    "The platform authorization has ended (revoked or expired); sign in again to continue.",
    reason ? { reason } : undefined,
  );
}

/** The platform could not be reached or failed (5xx, network, timeout). Nothing was revoked. */
export function platformUnavailable(cause?: unknown): ApiError {
  const code = isPlatformError(cause) ? cause.code : undefined;
  return new ApiError(
    503,
    PLATFORM_UNAVAILABLE,
    "The platform is unavailable right now; try again shortly.",
    code ? { platform_error: code } : undefined,
  );
}
