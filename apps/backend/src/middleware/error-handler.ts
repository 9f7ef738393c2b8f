import type { IncomingMessage } from "node:http";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { StatusCode } from "hono/utils/http-status";
import { isPlatformError, type PlatformErrorCode } from "@overture/core/errors";
import type { AppEnv } from "./app-env.ts";
import { errorSummary } from "../lib/error-summary.ts";
import { ApiError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { OutageLog } from "../lib/outage-log.ts";
import { platformUnavailable } from "../services/credentials/errors.ts";
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

/** The platform did not answer, or failed: 503 `platform_unavailable`, as the credential routes say. */
const UNREACHABLE = new Set<PlatformErrorCode>([
  "PLATFORM_NETWORK_ERROR",
  "PLATFORM_SERVER_ERROR",
  "PLATFORM_DEADLINE_EXCEEDED",
]);

/** nginx's status for a request whose client closed the connection before the answer. */
const CLIENT_CLOSED_REQUEST = 499 as StatusCode;

/** Whether the request's connection is gone (a Node server; in-process requests have none). */
function clientGone(c: Context<AppEnv>): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.destroyed === true && !incoming.complete;
}

/** One place that turns thrown errors into JSON error bodies `{ error, message }`. */
export function errorHandler(
  logger: Logger,
  outages: Pick<OutageLog, "report">,
): ErrorHandler<AppEnv> {
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
    const requestId = c.get("requestId");
    if (clientGone(c)) {
      // The client hung up (mid-upload, say): its body stream failed with ECONNRESET, which is
      // neither a database outage nor a fault of ours. Nobody reads this answer; 499 as nginx
      // logs it.
      logger.info({ requestId, err: errorSummary(error) }, "client closed the request");
      return c.body(null, CLIENT_CLOSED_REQUEST);
    }
    // Asked first: a platform error carries the platform's socket error in its cause chain.
    if (isPlatformError(error)) {
      if (UNREACHABLE.has(error.code)) {
        logger.warn(
          { requestId, code: error.code, status: error.status, err: errorSummary(error) },
          "platform unavailable",
        );
        const unavailable = platformUnavailable(error);
        return c.json(
          { error: unavailable.code, message: unavailable.message, ...unavailable.details },
          unavailable.status,
        );
      }
      // The platform's other failures are the backend's upstream errors: 502, except where the
      // caller can act (sign in again, free quota, fix a parameter).
      const status =
        error.code === "PLATFORM_BAD_REQUEST" ? 400 : error.code === "QUOTA_EXHAUSTED" ? 429 : 502;
      logger.warn({ requestId, code: error.code, status: error.status }, "platform error");
      return c.json({ error: error.code.toLowerCase(), message: error.message }, status);
    }
    // 503 while the database is unavailable, else 500 (answer.ts, as the webhook edge answers).
    const answer = failureAnswer(error, requestId, { logger, outages });
    for (const [name, value] of answer.headers) c.header(name, value);
    return c.json(answer.body, answer.status);
  };
}
