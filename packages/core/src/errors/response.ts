import {
  OAUTH_INVALID_CLIENT,
  OAUTH_INVALID_GRANT,
  PLATFORM_BAD_REQUEST,
  PLATFORM_FORBIDDEN,
  PLATFORM_NOT_FOUND,
  PLATFORM_RATE_LIMITED,
  PLATFORM_SERVER_ERROR,
  PLATFORM_UNAUTHORIZED,
  QUOTA_EXHAUSTED,
  type PlatformErrorCode,
} from "./codes.ts";
import { PlatformError } from "./platform-error.ts";

/**
 * The error code and message an error body carries, when it carries them (spec 7: format not
 * shown).
 *
 * @example
 * ```ts
 * const { code, message }: ErrorBodyReading = readErrorBody(await response.json());
 * ```
 */
export interface ErrorBodyReading {
  code?: string | undefined;
  message?: string | undefined;
}

const MAX_MESSAGE = 500;

function text(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  return trimmed.length > MAX_MESSAGE ? `${trimmed.slice(0, MAX_MESSAGE)}…` : trimmed;
}

function detailText(detail: unknown): string | undefined {
  if (!Array.isArray(detail)) return text(detail);
  const parts = detail.map((item: unknown) =>
    typeof item === "object" && item !== null ? text((item as { msg?: unknown }).msg) : text(item),
  );
  return text(parts.filter(Boolean).join("; "));
}

/**
 * Reads the error code and message of an error body in any shape Overture recognises (spec 7
 * does not show the format): `{ error, message }`, `{ error, error_description }`,
 * `{ message }`, `{ error_message }` (seen live), `{ error: { code, message } }`,
 * `{ code, message }` (a code may be a number), `{ detail }` (a string or a list of `{ msg }`),
 * or a short plain-text body. Never throws.
 *
 * @example
 * ```ts
 * readErrorBody({ error: "quota_exceeded", message: "Quota full" });
 * // { code: "quota_exceeded", message: "Quota full" }
 * ```
 */
export function readErrorBody(body: unknown): ErrorBodyReading {
  if (typeof body === "string")
    return body.trimStart().startsWith("<") ? {} : withoutEmpty({ message: text(body) });
  if (typeof body !== "object" || body === null) return {};
  const record = body as Record<string, unknown>;
  const nested =
    typeof record.error === "object" && record.error !== null
      ? (record.error as Record<string, unknown>)
      : {};
  return withoutEmpty({
    code: text(record.error) ?? codeText(nested.code) ?? codeText(record.code),
    message:
      text(record.message) ??
      text(record.error_message) ??
      text(record.error_description) ??
      text(nested.message) ??
      detailText(record.detail),
  });
}

/** A code given as text or as a number (`{"code":500,"message":…}` is seen live). */
function codeText(value: unknown): string | undefined {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : text(value);
}

function withoutEmpty(reading: ErrorBodyReading): ErrorBodyReading {
  const result: ErrorBodyReading = {};
  if (reading.code !== undefined) result.code = reading.code;
  if (reading.message !== undefined) result.message = reading.message;
  return result;
}

/**
 * What {@link errorFromResponse} needs to know about a non-2xx response (spec 7).
 *
 * @example
 * ```ts
 * const response: ErrorResponse = { status: 429, body: { error: "quota_exceeded" } };
 * ```
 */
export interface ErrorResponse {
  status: number;
  /** Parsed JSON body, or the text when it is not JSON. */
  body?: unknown;
  /** `Retry-After`, already converted to ms. */
  retryAfterMs?: number | undefined;
  /** `"METHOD /path"` of the request, named in the message (never the query or a token). */
  request?: string | undefined;
  /** The request went to the OAuth token endpoint: read RFC 6749 error codes (spec 4.2). */
  tokenEndpoint?: boolean | undefined;
  taskId?: string | undefined;
}

const QUOTA_CODE = /quota/i;
// The live platform writes its messages in Chinese too (`必传参数: …`): 配额 is quota, 并发 concurrency.
const QUOTA_MESSAGE = /quota|concurren|配额|并发/i;

/** A 4xx that may carry a full quota: not 401 (the token) nor 404 (the address). */
function mayBeQuota(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 404;
}

function codeFor(
  status: number,
  reading: ErrorBodyReading,
  tokenEndpoint: boolean,
): PlatformErrorCode {
  if (tokenEndpoint) {
    if (reading.code === "invalid_grant") return OAUTH_INVALID_GRANT;
    if (reading.code === "invalid_client" || reading.code === "unauthorized_client")
      return OAUTH_INVALID_CLIENT;
    // RFC 6749 §5.2: a 401 from the token endpoint means client authentication failed.
    if (status === 401) return OAUTH_INVALID_CLIENT;
  }
  if (reading.code !== undefined && QUOTA_CODE.test(reading.code)) return QUOTA_EXHAUSTED;
  // The quota answer is not documented (spec 7 only says the submit fails); clients read a 4xx
  // whose message names the quota, whatever its status.
  if (mayBeQuota(status) && QUOTA_MESSAGE.test(reading.message ?? "")) return QUOTA_EXHAUSTED;
  if (status === 401) return PLATFORM_UNAUTHORIZED;
  if (status === 403) return PLATFORM_FORBIDDEN;
  if (status === 404) return PLATFORM_NOT_FOUND;
  if (status === 429) return PLATFORM_RATE_LIMITED;
  if (status >= 500) return PLATFORM_SERVER_ERROR;
  return PLATFORM_BAD_REQUEST;
}

const SUMMARY: Record<PlatformErrorCode, string> = {
  PLATFORM_UNAUTHORIZED: "The platform refused the token",
  PLATFORM_FORBIDDEN: "The platform denied access",
  PLATFORM_NOT_FOUND: "Not found on the platform",
  PLATFORM_BAD_REQUEST: "The platform rejected the request",
  QUOTA_EXHAUSTED: "The concurrency quota is exhausted",
  PLATFORM_RATE_LIMITED: "Rate limited by the platform",
  PLATFORM_SERVER_ERROR: "The platform failed",
  PLATFORM_NETWORK_ERROR: "No response from the platform",
  PLATFORM_ABORTED: "Aborted",
  PLATFORM_DEADLINE_EXCEEDED: "Deadline exceeded",
  PLATFORM_INVALID_RESPONSE: "Unexpected response from the platform",
  OAUTH_INVALID_GRANT: "The token endpoint refused the grant",
  OAUTH_INVALID_CLIENT:
    "The token endpoint refused the client credentials, a configuration problem: check the client id, the client secret and the client authentication mode",
};

/**
 * The {@link PlatformError} for a non-2xx response: the code from the status and the body (a
 * quota code, or a 4xx other than 401 and 404 whose message names the quota or concurrency, is
 * `QUOTA_EXHAUSTED`, other 429s `PLATFORM_RATE_LIMITED`; on the token
 * endpoint `invalid_grant` / `invalid_client` become `OAUTH_*`), and a message that names the
 * problem, the request and the platform's own message (spec 7).
 *
 * @example
 * ```ts
 * errorFromResponse({ status: 400, body: { error: "bad_request", message: "prompt is required" },
 *   request: "POST /v1/async/music/generations" }).message;
 * // "The platform rejected the request (HTTP 400, bad_request, on POST /v1/async/music/generations): prompt is required"
 * ```
 */
export function errorFromResponse(response: ErrorResponse): PlatformError {
  const reading = readErrorBody(response.body);
  const code = codeFor(response.status, reading, response.tokenEndpoint ?? false);
  const context = [`HTTP ${response.status}`];
  if (reading.code !== undefined) context.push(reading.code);
  if (response.request !== undefined) context.push(`on ${response.request}`);
  const detail = reading.message === undefined ? "" : `: ${reading.message}`;
  return new PlatformError(code, `${SUMMARY[code]} (${context.join(", ")})${detail}`, {
    status: response.status,
    body: response.body,
    platformCode: reading.code,
    retryAfterMs: response.retryAfterMs,
    taskId: response.taskId,
  });
}
