import type { PlatformErrorCode } from "./codes.ts";

/**
 * Details of a {@link PlatformError} besides its code and message (spec 7).
 *
 * @example
 * ```ts
 * new PlatformError("PLATFORM_NOT_FOUND", "No such task", { status: 404, taskId: "t1" });
 * ```
 */
export interface PlatformErrorOptions {
  /** HTTP status, when the platform answered. */
  status?: number | undefined;
  /** The response body (parsed JSON, or text), when the platform answered. */
  body?: unknown;
  /** The error code the body named (`"quota_exceeded"`, `"invalid_grant"`), when it named one. */
  platformCode?: string | undefined;
  /** How long the platform asked to wait (`Retry-After`), in ms. */
  retryAfterMs?: number | undefined;
  /** The task concerned, for task operations and waits. */
  taskId?: string | undefined;
  /** The underlying error (a fetch `TypeError`, a zod error, an abort reason). */
  cause?: unknown;
}

/**
 * The one error class of `@overture/core`'s platform calls. `code` is stable (see
 * `PLATFORM_ERROR_CODES`); `message` names the problem and, for a refused request, carries the
 * platform's own message from the body (spec 7). Never carries a token or secret.
 *
 * @example
 * ```ts
 * try {
 *   await client.submitMusicTask(token, params);
 * } catch (error) {
 *   if (isPlatformError(error, "QUOTA_EXHAUSTED")) queueForLater();
 *   else throw error;
 * }
 * ```
 */
export class PlatformError extends Error {
  override readonly name = "PlatformError";
  readonly code: PlatformErrorCode;
  readonly status?: number;
  readonly body?: unknown;
  readonly platformCode?: string;
  readonly retryAfterMs?: number;
  readonly taskId?: string;

  constructor(code: PlatformErrorCode, message: string, options: PlatformErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.body !== undefined) this.body = options.body;
    if (options.platformCode !== undefined) this.platformCode = options.platformCode;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.taskId !== undefined) this.taskId = options.taskId;
  }
}

/**
 * Whether `error` is a {@link PlatformError}, optionally with one of the given codes (spec 7).
 * Also recognises a PlatformError from another copy of this module (by `name` and `code`).
 *
 * @example
 * ```ts
 * if (isPlatformError(error, ["OAUTH_INVALID_GRANT", "OAUTH_INVALID_CLIENT"])) markRevoked();
 * ```
 */
export function isPlatformError(
  error: unknown,
  code?: PlatformErrorCode | readonly PlatformErrorCode[],
): error is PlatformError {
  const isOne =
    error instanceof PlatformError ||
    (error instanceof Error &&
      error.name === "PlatformError" &&
      typeof (error as { code?: unknown }).code === "string");
  if (!isOne || code === undefined) return isOne;
  const codes: readonly string[] = typeof code === "string" ? [code] : code;
  return codes.includes((error as PlatformError).code);
}

/**
 * A copy of `error` that names `taskId`, for errors raised while working on one task (spec 4.7:
 * task operations).
 *
 * @example
 * ```ts
 * throw withTaskId(error, "t-123");
 * ```
 */
export function withTaskId(error: PlatformError, taskId: string): PlatformError {
  if (error.taskId === taskId) return error;
  const copy = new PlatformError(error.code, error.message, {
    status: error.status,
    body: error.body,
    platformCode: error.platformCode,
    retryAfterMs: error.retryAfterMs,
    taskId,
    cause: error.cause,
  });
  if (error.stack) copy.stack = error.stack;
  return copy;
}
