import { isPlatformError } from "@overture/core/errors";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ApiErrorCode, BACKEND_MISCONFIGURED } from "../schemas/error-codes.ts";

/**
 * An error the API reports to its caller as `{ error, message, ...details }` with `status`.
 * `code` is stable (clients switch on it); `message` names the problem for a person.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The platform answered `invalid_client`: the backend's own credentials or auth mode are wrong.
 * Nothing a user does fixes it and retrying does not help, so both the operator's log line and
 * the answer to the extension name the settings to change.
 */
export const CLIENT_REJECTED_LOG =
  "the platform refused the backend's client credentials (invalid_client): check PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET and PLATFORM_CLIENT_AUTH (basic, basic-rfc6749 or form)";
export const BACKEND_MISCONFIGURED_MESSAGE =
  "The backend is misconfigured: the platform refused its client credentials. Its operator must check PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET and PLATFORM_CLIENT_AUTH.";

export function backendMisconfigured(): ApiError {
  return new ApiError(502, BACKEND_MISCONFIGURED, BACKEND_MISCONFIGURED_MESSAGE);
}

/** The database could not be reached (stopped, restarting, network): answer 503, retry later. */
export class DatabaseUnavailableError extends Error {
  override readonly name = "DatabaseUnavailableError";
}

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000", // connection_exception
  "08001",
  "08003",
  "08006",
]);

/**
 * Whether an error (or its cause chain) means "the database is not reachable right now". A
 * platform error ends the search: its cause holds the platform's socket error (ECONNREFUSED
 * from a platform that is down), which is no database outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof DatabaseUnavailableError) return true;
    if (typeof current !== "object" || isPlatformError(current)) return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (
      typeof message === "string" &&
      /Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed/i.test(
        message,
      )
    ) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
