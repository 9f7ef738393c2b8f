/**
 * Error codes a view can receive from the background. Each maps to a localised sentence
 * (`errors.<code>` in the locale files) and, for some, to a whole state screen.
 */
export const ERROR_CODES = [
  "offline",
  "backend_unreachable",
  "unauthenticated",
  "reauthentication_required",
  "session_expired",
  "signed_out",
  "sign_in_denied",
  "sign_in_cancelled",
  "sign_in_redirect_refused",
  "sign_in_failed",
  "backend_misconfigured",
  "invalid_parameters",
  "no_selection",
  "not_found",
  "not_cancellable",
  "database_unavailable",
  "platform_unavailable",
  "shutting_down",
  "rate_limited",
  "archive_quota_exceeded",
  "permission_denied",
  "invalid_url",
  "invalid_namespace",
  "invalid_secret",
  "backend_not_set",
  "link_expired",
  "task_active",
  "undo_expired",
  "unexpected",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A refused field as the backend reports it (core's `MusicFieldError` shape). */
export interface FieldProblem {
  field: string;
  code: string;
  message?: string;
  min?: number;
  max?: number;
  options?: readonly string[];
}

/** What travels over the message channel when a request fails. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  fields?: FieldProblem[];
  /** How long the backend asked to wait before trying again (`rate_limited`), when it said. */
  retryAfterSeconds?: number;
}

/** An error with a stable code, thrown in the background and re-thrown in views. */
export class OvertureError extends Error {
  override readonly name = "OvertureError";
  readonly code: ErrorCode;
  readonly fields: FieldProblem[] | undefined;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      fields?: FieldProblem[];
      status?: number;
      retryAfterSeconds?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.fields = options.fields;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toPayload(): ErrorPayload {
    return {
      code: this.code,
      message: this.message,
      ...(this.fields ? { fields: this.fields } : {}),
      ...(this.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: this.retryAfterSeconds }),
    };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/** Any thrown value as a payload; unknown failures become `unexpected` with their message. */
export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof OvertureError) return error.toPayload();
  const message = error instanceof Error ? error.message : String(error);
  return { code: "unexpected", message };
}
