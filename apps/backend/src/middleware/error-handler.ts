import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { isPlatformError } from "@overture/core/errors";
import type { AppEnv } from "./app-env.ts";
import { ApiError, isDatabaseUnavailable } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import { failureAnswer } from "./answer.ts";
import {
  type ApiErrorCode,
  HTTP_ERROR,
  INVALID_REQUEST,
  PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE,
} from "../schemas/error-codes.ts";

const HTTP_ERRORS: Partial<Record<number, { code: ApiErrorCode; message?: string }>> = {
  400: { code: INVALID_REQUEST }, // "Malformed JSON in request body"
  413: { code: PAYLOAD_TOO_LARGE },
  415: {
    code: UNSUPPORTED_MEDIA_TYPE,
    message: "The request body must be JSON, sent with Content-Type: application/json.",
  },
};

/** One place that turns thrown errors into JSON error bodies `{ error, message }`. */
export function errorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return function handleError(error, c) {
    if (error instanceof ApiError) {
      return c.json({ error: error.code, message: error.message, ...error.details }, error.status);
    }
    if (error instanceof HTTPException) {
      // Hono's own refusals (the JSON validator): say what was wrong in the API's terms.
      const status = error.status;
      const known = HTTP_ERRORS[status];
      return c.json(
        { error: known?.code ?? HTTP_ERROR, message: known?.message ?? error.message },
        status,
      );
    }
    if (isDatabaseUnavailable(error)) return failure(c, error);
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
    return failure(c, error);
  };

  /** 503 while the database is unavailable, else 500 (answer.ts, as the webhook edge answers). */
  function failure(c: Context<AppEnv>, error: unknown) {
    const answer = failureAnswer(error, c.get("requestId"), logger);
    for (const [name, value] of answer.headers) c.header(name, value);
    return c.json(answer.body, answer.status);
  }
}
