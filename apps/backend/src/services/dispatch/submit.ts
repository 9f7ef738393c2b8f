import { requestNeverSent } from "@overture/core/client";
import { isPlatformError } from "@overture/core/errors";
import { ApiError } from "../../lib/errors.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import { cancelDeferred } from "./cancel.ts";
import type { DispatchDeps } from "./deps.ts";
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

/** What became of one submit attempt, and until when a refusal holds the account's queue. */
export interface SubmitResult {
  outcome: SubmitOutcome;
  /** A requeued submit whose answer carried `Retry-After` (see {@link submitHoldMs}). */
  heldUntil?: Date;
}

/**
 * Longest a refused submit's `Retry-After` holds an account's queue. Spec 8: tasks usually take
 * 1 to 10 minutes, so by then a running task has ended and the quota has room again; a longer
 * value is likelier a relay's blanket header or a skewed HTTP date than the platform's need, and
 * would strand the user's queued tasks. (Core caps `Retry-After` at 60 s where it sleeps inside
 * one call; a hold blocks nothing, so it can be longer.)
 */
export const MAX_SUBMIT_HOLD_MS = 10 * 60_000;

/**
 * How long the account's queued tasks wait after a submit that goes back to the queue: the
 * platform's `Retry-After` (core parses its seconds or HTTP date into `retryAfterMs`), never less
 * than one queue round (`roundMs`, when the next try would come anyway) and never more than
 * {@link MAX_SUBMIT_HOLD_MS}. Undefined without `Retry-After`: the next round tries again.
 */
export function submitHoldMs(error: unknown, roundMs: number): number | undefined {
  if (!isPlatformError(error) || error.retryAfterMs === undefined) return undefined;
  return Math.min(MAX_SUBMIT_HOLD_MS, Math.max(roundMs, error.retryAfterMs));
}

/**
 * How long the account's queued tasks wait after the quota check a drain makes before submitting
 * (GET available-quota) was refused with 429 and `Retry-After`: as long as a refused submit's
 * ({@link submitHoldMs}, same bounds); without the hold every round would ask again at once.
 * Another failure of the check holds nothing: the drain fails, the next round tries again.
 */
export function quotaCheckHoldMs(error: unknown, roundMs: number): number | undefined {
  return isQuotaCheckHold(error) ? submitHoldMs(error, roundMs) : undefined;
}

/** Whether a failed quota check is one that holds the queue (a 429 with `Retry-After`). */
export function isQuotaCheckHold(error: unknown): boolean {
  return isPlatformError(error) && error.status === 429 && error.retryAfterMs !== undefined;
}

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
 * stale-submit sweep turns into `unknown` rather than a silent resubmit. A requeued task whose
 * refusal carried `Retry-After` goes back held until `heldUntil` (its `next_poll_at`), in the
 * same commit, so no instance claims it earlier; `roundMs` is the queue's round.
 */
export async function submitClaimed(
  deps: DispatchDeps,
  row: TaskRow,
  key: string,
  roundMs: number,
): Promise<SubmitResult> {
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
    const holdMs = kind === "requeue" ? submitHoldMs(error, roundMs) : undefined;
    const heldUntil = holdMs === undefined ? undefined : new Date(deps.clock.now() + holdMs);
    deps.logger.info(
      {
        taskId: row.id,
        kind,
        code: isPlatformError(error) || error instanceof ApiError ? error.code : undefined,
        ...(heldUntil ? { heldUntil: heldUntil.toISOString() } : {}),
      },
      "submit failed",
    );
    await recordFailure(deps, row.id, kind, error, heldUntil);
    if (kind !== "requeue") return { outcome: kind };
    return heldUntil ? { outcome: "requeued", heldUntil } : { outcome: "requeued" };
  }

  const status = typeof response.status === "string" ? response.status : "waiting";
  const result = await deps.record.apply([
    { taskId: row.id, source: "api", platformTaskId: response.task_id, status, submitted: true },
  ]);
  const after = result.rows.get(row.id);
  if (after?.cancelRequestedAt) void cancelDeferred(deps, after);
  return { outcome: "submitted" };
}

async function recordFailure(
  deps: DispatchDeps,
  taskId: string,
  kind: FailureKind,
  error: unknown,
  heldUntil: Date | undefined,
): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await deps.record.update(taskId, "api", (row, now) => {
    // A callback may already have proved the task exists (it adopted a platform id): keep that.
    if (row.status !== "submitting") return undefined;
    const base = { ...row, submitStartedAt: null, updatedAt: now };
    if (kind === "requeue")
      return {
        ...base,
        status: "queued",
        webhookKeyHash: null,
        webhookExpected: false,
        nextPollAt: heldUntil ?? null,
      };
    if (kind === "rejected")
      return { ...base, status: "rejected", error: message, finishedAt: now };
    return { ...base, status: "unknown", error: UNKNOWN_SUBMIT_MESSAGE };
  });
}
