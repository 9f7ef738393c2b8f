import type { z } from "zod";
import {
  PLATFORM_ABORTED,
  PLATFORM_INVALID_RESPONSE,
  PLATFORM_NETWORK_ERROR,
  PlatformError,
  errorFromResponse,
} from "../errors/index.ts";

/**
 * Transport settings shared by every platform call (spec 4; spec 8 asks for timeouts).
 *
 * @example
 * ```ts
 * const http: HttpOptions = { fetch: fakeFetch, signal: controller.signal, timeoutMs: 10_000 };
 * ```
 */
export interface HttpOptions {
  /** `fetch` to use; defaults to the global one. Inject a fake in tests. */
  fetch?: typeof fetch | undefined;
  /** Ends the request at once with `PLATFORM_ABORTED`. */
  signal?: AbortSignal | undefined;
  /**
   * Per-request timeout in ms; without a response in time the request ends with
   * `PLATFORM_NETWORK_ERROR` (cause: a `TimeoutError` DOMException). Default 30 s; `0` or
   * `Infinity` disables it.
   */
  timeoutMs?: number | undefined;
  /** Clock in ms, for `Retry-After` given as an HTTP date. Defaults to `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * Default per-request timeout, 30 s: long enough for a multipart submit, short enough to notice
 * (spec 8 asks for timeouts without giving one).
 *
 * @example
 * ```ts
 * createPlatformClient({ baseUrl, timeoutMs: DEFAULT_REQUEST_TIMEOUT_MS * 2 });
 * ```
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * One request to the platform and how to read its answer (spec 4 endpoints, spec 2 bodies).
 *
 * @example
 * ```ts
 * const request: PlatformRequest<UserInfo> = { method: "GET", schema: userInfoSchema,
 *   url: `${baseUrl}/api/open/v1/userinfo`, headers: { Authorization: `Bearer ${token}` } };
 * ```
 */
export interface PlatformRequest<T> {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string> | undefined;
  body?: BodyInit | undefined;
  /** Schema of a 2xx body; a mismatch is `PLATFORM_INVALID_RESPONSE`. */
  schema: z.ZodType<T>;
  /** Value a 2xx with an empty body stands for; without it an empty body is invalid. */
  emptyBody?: unknown;
  /** The token endpoint answers RFC 6749 errors (spec 4.2). */
  tokenEndpoint?: boolean | undefined;
  /** Named in errors of task operations. */
  taskId?: string | undefined;
}

/**
 * Reads `Retry-After` (delta-seconds or an HTTP date, RFC 9110 §10.2.3) as ms from `now`.
 * `undefined` when absent or unreadable; a date in the past gives 0. (Spec 8 shows no rate
 * limits; the emulator's quota 429 carries `Retry-After` when started with `quotaRetryAfterSeconds`.)
 *
 * @example
 * ```ts
 * parseRetryAfter("2", Date.now()); // 2000
 * ```
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names its day and month; this keeps Date.parse from reading "-5" as a year.
  const date = /[a-z]{3}/i.test(trimmed) ? Date.parse(trimmed) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Whether `error` is a per-request timeout of {@link sendPlatformRequest} (no answer within
 * `timeoutMs`): ambiguous for a POST, the request may have arrived (spec 8 asks for timeouts).
 *
 * @example
 * ```ts
 * if (isRequestTimeout(error)) log.warn("platform slow");
 * ```
 */
export function isRequestTimeout(error: unknown): boolean {
  return (
    error instanceof PlatformError &&
    error.code === PLATFORM_NETWORK_ERROR &&
    error.cause instanceof DOMException &&
    error.cause.name === "TimeoutError"
  );
}

function describe(method: string, url: string): string {
  return `${method} ${new URL(url).pathname}`;
}

/** Links the caller's signal and a timeout into one signal for `fetch`. */
function requestSignal(signal: AbortSignal | undefined, timeoutMs: number) {
  const controller = new AbortController();
  const onAbort = () => {
    controller.abort(signal?.reason);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          controller.abort(new DOMException(`No response within ${timeoutMs} ms`, "TimeoutError"));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}

function transportError(error: unknown, request: string, signal: AbortSignal, taskId?: string) {
  const reason: unknown = signal.reason;
  if (signal.aborted && !(reason instanceof DOMException && reason.name === "TimeoutError"))
    return new PlatformError(PLATFORM_ABORTED, `Aborted: ${request}`, { cause: reason, taskId });
  const cause = signal.aborted ? reason : error;
  const why = cause instanceof Error ? cause.message : String(cause);
  return new PlatformError(
    PLATFORM_NETWORK_ERROR,
    `No response from the platform to ${request}: ${why}`,
    {
      cause,
      taskId,
    },
  );
}

/** A body as JSON when it is JSON, else its text; `undefined` when empty. */
function parseBody(text: string): { value: unknown; json: boolean } {
  if (text.trim() === "") return { value: undefined, json: false };
  try {
    return { value: JSON.parse(text) as unknown, json: true };
  } catch {
    return { value: text, json: false };
  }
}

/**
 * Sends one request (spec 4) and returns its body validated against its spec 2 schema, or
 * throws a `PlatformError` (spec 7): an HTTP error
 * by {@link errorFromResponse}, no response as `PLATFORM_NETWORK_ERROR` (with the fetch error as
 * `cause`), the caller's abort as `PLATFORM_ABORTED`, a 2xx body that is not JSON or fails the
 * schema as `PLATFORM_INVALID_RESPONSE`. No retries here (see `createPlatformClient`).
 *
 * @example
 * ```ts
 * const user = await sendPlatformRequest(
 *   { method: "GET", url: `${base}/api/open/v1/userinfo`, schema: userInfoSchema,
 *     headers: { Authorization: `Bearer ${token}` } },
 *   { fetch },
 * );
 * ```
 */
export async function sendPlatformRequest<T>(
  request: PlatformRequest<T>,
  options: HttpOptions = {},
): Promise<T> {
  const name = describe(request.method, request.url);
  const { taskId } = request;
  if (options.signal?.aborted)
    throw new PlatformError(PLATFORM_ABORTED, `Aborted: ${name}`, {
      cause: options.signal.reason,
      taskId,
    });
  const linked = requestSignal(options.signal, options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  let response: Response;
  let text: string;
  try {
    response = await (options.fetch ?? fetch)(request.url, {
      method: request.method,
      headers: { Accept: "application/json", ...request.headers },
      body: request.body ?? null,
      signal: linked.signal,
    });
    text = await response.text();
  } catch (error) {
    throw transportError(error, name, linked.signal, taskId);
  } finally {
    linked.done();
  }
  const { value: body, json } = parseBody(text);
  if (!response.ok) {
    const now = (options.now ?? Date.now)();
    throw errorFromResponse({
      status: response.status,
      body,
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), now),
      request: name,
      tokenEndpoint: request.tokenEndpoint,
      taskId,
    });
  }
  if (body !== undefined && !json)
    throw invalid(request, response.status, name, body, "body is not JSON");
  return validate(request, response.status, name, body === undefined ? request.emptyBody : body);
}

function invalid(
  request: PlatformRequest<unknown>,
  status: number,
  name: string,
  body: unknown,
  why: string,
  cause?: unknown,
): PlatformError {
  return new PlatformError(
    PLATFORM_INVALID_RESPONSE,
    `Unexpected response from the platform (HTTP ${status} on ${name}): ${why}`,
    { status, body, cause, taskId: request.taskId },
  );
}

function validate<T>(request: PlatformRequest<T>, status: number, name: string, body: unknown): T {
  if (body === undefined) throw invalid(request, status, name, body, "empty body");
  const parsed = request.schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
    throw invalid(request, status, name, body, issues.join("; "), parsed.error);
  }
  return parsed.data;
}
