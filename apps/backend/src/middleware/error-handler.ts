import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { isPlatformError } from "@overture/core/errors";
import type { AppEnv } from "../app-env.ts";
import { ApiError, isDatabaseUnavailable } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";

/** One place that turns thrown errors into JSON error bodies `{ error, message }`. */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return function handleError(error, c) {
    if (error instanceof ApiError) {
      return c.json({ error: error.code, message: error.message, ...error.details }, error.status);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      return c.json(
        { error: status === 413 ? "payload_too_large" : "http_error", message: error.message },
        status,
      );
    }
    if (isDatabaseUnavailable(error)) {
      logger.warn({ requestId: c.get("requestId"), err: describe(error) }, "database unavailable");
      c.header("Retry-After", "5");
      return c.json(
        { error: "database_unavailable", message: "The database is unavailable; retry shortly." },
        503,
      );
    }
    if (isPlatformError(error)) {
      // The platform's own failures are the backend's upstream errors: 502, except where the
      // caller can act (sign in again, free quota, fix a parameter).
      const status =
        error.code === "PLATFORM_BAD_REQUEST" ? 400 : error.code === "QUOTA_EXHAUSTED" ? 429 : 502;
      logger.warn(
        { requestId: c.get("requestId"), code: error.code, status: error.status },
        "platform error",
      );
      return c.json({ error: error.code.toLowerCase(), message: error.message }, status);
    }
    logger.error({ requestId: c.get("requestId"), err: describe(error) }, "unhandled error");
    return c.json(
      {
        error: "internal_error",
        message: "Something went wrong on the server.",
        request_id: c.get("requestId"),
      },
      500,
    );
  };
}

function describe(error: unknown): { name?: string; message?: string; code?: unknown } {
  if (!(error instanceof Error)) return { message: String(error) };
  return { name: error.name, message: error.message, code: (error as { code?: unknown }).code };
}
