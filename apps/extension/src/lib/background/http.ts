import {
  ACCESS_TOKEN_NOT_FOUND,
  type ApiErrorCode,
  BACKEND_MISCONFIGURED,
  DATABASE_UNAVAILABLE,
  INVALID_PARAMETERS,
  INVALID_SECRET,
  NAMESPACE_NOT_FOUND,
  NO_TOKEN_SELECTED,
  NOT_ARCHIVED,
  NOT_CANCELLABLE,
  NOT_FOUND as ROUTE_NOT_FOUND,
  PLATFORM_UNAVAILABLE,
  RATE_LIMITED,
  REAUTHENTICATION_REQUIRED,
  TASK_NOT_FOUND,
  SHARE_NOT_FOUND,
  SHUTTING_DOWN,
  TASK_ACTIVE,
  UNAUTHENTICATED,
  UNDO_EXPIRED,
} from "@overture/backend/api";
import { type ErrorCode, type FieldProblem, OvertureError } from "../shared/errors.ts";

/** Backend error codes that keep their name in the extension (each is an extension code too). */
const PASSED_THROUGH: readonly (ApiErrorCode & ErrorCode)[] = [
  UNAUTHENTICATED,
  REAUTHENTICATION_REQUIRED,
  INVALID_PARAMETERS,
  INVALID_SECRET,
  DATABASE_UNAVAILABLE,
  PLATFORM_UNAVAILABLE,
  BACKEND_MISCONFIGURED,
  TASK_ACTIVE,
  UNDO_EXPIRED,
  // Before the generic 503 below: a draining instance is not the platform being down.
  SHUTTING_DOWN,
];

/** Whether the browser believes it is offline (`navigator` is absent in some test runtimes). */
export function browserOffline(): boolean {
  return typeof navigator !== "undefined" && !navigator.onLine;
}

/** A request that never got an answer: offline when the browser says so, else unreachable. */
export function networkError(cause: unknown): OvertureError {
  return browserOffline()
    ? new OvertureError("offline", "The network is offline.", { cause })
    : new OvertureError("backend_unreachable", "The backend could not be reached.", { cause });
}

/** Backend codes that mean "not found" in one way or another. */
const NOT_FOUND: readonly string[] = [
  ROUTE_NOT_FOUND,
  NAMESPACE_NOT_FOUND,
  ACCESS_TOKEN_NOT_FOUND,
  TASK_NOT_FOUND,
  NOT_ARCHIVED,
  SHARE_NOT_FOUND,
];

/**
 * Seconds to wait, from the body's `retry_after_seconds` or else the `Retry-After` header (the
 * backend sends both with `rate_limited`; a proxy in front of it may send only the header).
 */
function retryAfter(
  body: { retry_after_seconds?: unknown },
  headers?: Headers,
): number | undefined {
  const candidates = [body.retry_after_seconds, headers?.get("retry-after")];
  for (const candidate of candidates) {
    const seconds =
      typeof candidate === "string" && candidate.trim() ? Number(candidate) : candidate;
    if (typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0)
      return Math.ceil(seconds);
  }
  return undefined;
}

/** Turns a backend error response (`{ error, message, fields? }`) into an `OvertureError`. */
export async function responseError(response: {
  status: number;
  headers?: Headers;
  json(): Promise<unknown>;
}): Promise<OvertureError> {
  const body = (await response.json().catch(() => ({}))) as {
    error?: unknown;
    message?: unknown;
    fields?: FieldProblem[];
    retry_after_seconds?: unknown;
  };
  const code = typeof body.error === "string" ? body.error : "";
  const message = typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
  const status = response.status;
  const fields = Array.isArray(body.fields) ? body.fields : undefined;
  if (code === NO_TOKEN_SELECTED) return new OvertureError("no_selection", message, { status });
  if (code === NOT_CANCELLABLE) return new OvertureError("not_cancellable", message, { status });
  if (NOT_FOUND.includes(code)) return new OvertureError("not_found", message, { status });
  if (code === RATE_LIMITED) {
    const seconds = retryAfter(body, response.headers);
    return new OvertureError("rate_limited", message, {
      status,
      ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
    });
  }
  const passed = PASSED_THROUGH.find((known) => known === code);
  if (passed) return new OvertureError(passed, message, { status, ...(fields ? { fields } : {}) });
  if (status === 401) return new OvertureError("unauthenticated", message, { status });
  if (status === 404) return new OvertureError("not_found", message, { status });
  // An account's namespace the backend's route refused (typed by the person): not a music
  // field the compose form could highlight.
  if (status === 400 && fields?.some((field) => field.field === "ns"))
    return new OvertureError("invalid_namespace", message, { status });
  if (status === 400 && fields)
    return new OvertureError("invalid_parameters", message, { status, fields });
  if (status === 502 || status === 503 || status === 504)
    return new OvertureError("platform_unavailable", message, { status });
  return new OvertureError("unexpected", code ? `${code}: ${message}` : message, { status });
}

/** Sends one request; throws `OvertureError` for network failures and non-2xx answers. */
export async function send(fetcher: typeof fetch, request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await fetcher(request);
  } catch (cause) {
    throw networkError(cause);
  }
  if (!response.ok) throw await responseError(response);
  return response;
}
