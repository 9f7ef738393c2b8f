import { requestNeverSent } from "@overture/core/client";
import { isPlatformError } from "@overture/core/errors";
import { ApiError } from "../../lib/errors.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import type { TaskRuntime } from "./runtime.ts";
import type { TaskRow } from "../../db/schema/index.ts";

/** What became of one submit attempt. */
export type SubmitOutcome =
  /** The platform accepted the task. */
  | "submitted"
  /** Provably not created (quota full, rate limited, never sent, no credentials): queued again. */
  | "requeued"
  /** The platform refused it with a 4xx: final. */
  | "rejected"
  /** It may or may not exist on the platform: never resubmitted. */
  | "unknown";

export const UNKNOWN_SUBMIT_MESSAGE =
  "The platform may or may not have created this task; it was not resubmitted to avoid a duplicate.";

type FailureKind = "requeue" | "rejected" | "unknown";

/**
 * Sorts a failed submit (DESIGN "A music task's life" step 3). Core already retried the failures
 * where the request provably never left; what reaches here and is still "never sent" goes back
 * to the queue, as do the platform's refusals that prove no task was made (quota full, rate
 * limited) and credential problems raised before the request (minting, revoked grant), except an
 * access token that no longer exists. A 4xx is final. Everything else — timeout, reset, 5xx, an unreadable 2xx — is ambiguous.
 */
export function classifySubmitFailure(error: unknown): FailureKind {
  // Credentials, raised before anything was sent: queued again, unless the access token itself
  // is gone (deleted, or the account left), which no later round can fix.
  if (error instanceof ApiError)
    return error.code === ACCESS_TOKEN_NOT_FOUND ? "rejected" : "requeue";
  if (!isPlatformError(error)) return "unknown";
  switch (error.code) {
    case "QUOTA_EXHAUSTED":
    case "PLATFORM_RATE_LIMITED":
    case "PLATFORM_UNAUTHORIZED":
      return "requeue";
    case "PLATFORM_BAD_REQUEST":
    case "PLATFORM_FORBIDDEN":
    case "PLATFORM_NOT_FOUND":
      return "rejected";
    case "PLATFORM_NETWORK_ERROR":
      return requestNeverSent(error) ? "requeue" : "unknown";
    default:
      return "unknown";
  }
}

/**
 * Sends one claimed (`submitting`, committed) task to the platform and records the outcome. The
 * row was committed as `submitting` before the call, so a crash mid-call leaves evidence the
 * stale-submit sweep turns into `unknown` rather than a silent resubmit.
 */
export async function submitClaimed(
  runtime: TaskRuntime,
  row: TaskRow,
  key: string,
): Promise<SubmitOutcome> {
  const { deps } = runtime;
  const webhookUrl = row.webhookExpected
    ? `${deps.config.publicUrl}/webhooks/platform?k=${key}`
    : undefined;
  let response: Awaited<ReturnType<typeof deps.platform.submitMusicTask>>;
  try {
    response = await deps.proxyTokens.withProxyToken(
      row.userId,
      row.namespace,
      row.tokenId,
      (token) => deps.platform.submitMusicTask(token, row.params, webhookUrl ? { webhookUrl } : {}),
    );
  } catch (error) {
    const kind = classifySubmitFailure(error);
    deps.logger.info(
      {
        taskId: row.id,
        kind,
        code: isPlatformError(error) || error instanceof ApiError ? error.code : undefined,
      },
      "submit failed",
    );
    await recordFailure(runtime, row.id, kind, error);
    return kind === "requeue" ? "requeued" : kind;
  }

  const status = typeof response.status === "string" ? response.status : "waiting";
  const result = await runtime.apply([
    { taskId: row.id, source: "api", platformTaskId: response.task_id, status, submitted: true },
  ]);
  const after = result.rows.get(row.id);
  if (after?.cancelRequestedAt) void runtime.deferredCancel?.(after);
  return "submitted";
}

async function recordFailure(
  runtime: TaskRuntime,
  taskId: string,
  kind: FailureKind,
  error: unknown,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await runtime.update(taskId, "api", (row, now) => {
    // A callback may already have proved the task exists (it adopted a platform id): keep that.
    if (row.status !== "submitting") return undefined;
    const base = { ...row, submitStartedAt: null, updatedAt: now };
    if (kind === "requeue")
      return { ...base, status: "queued", webhookKeyHash: null, webhookExpected: false };
    if (kind === "rejected")
      return { ...base, status: "rejected", error: message, finishedAt: now };
    return { ...base, status: "unknown", error: UNKNOWN_SUBMIT_MESSAGE };
  });
}
