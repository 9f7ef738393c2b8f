import { isTaskStatus, isTerminalStatus, mergeStatus } from "@overture/core/task";
import type { TaskWithId } from "@overture/core/client";
import { signedLinkExpiresAt, taskErrorMessage, taskResultUrl } from "@overture/core/schemas";
import type { TaskEventSource } from "../../db/schema/index.ts";
import { priceOf } from "./price.ts";
import { firstPollDelay, nextPollDelay, type PollSchedule } from "./schedule.ts";
import type { TaskRow } from "../../db/schema/index.ts";

/**
 * What the platform said about one task, from any channel: a webhook event, a poll, a submit
 * response or a cancel response. Every channel goes through {@link mergeReport}, so they cannot
 * disagree about what a report means.
 */
export interface PlatformReport {
  taskId: string;
  source: TaskEventSource;
  /** The platform's task id as the report names it. */
  platformTaskId?: string;
  /** The status as sent (may be one the spec does not list). */
  status?: string;
  output?: Record<string, unknown> | null;
  usageInfo?: Record<string, unknown> | null;
  /** Failure text already extracted from the report (`taskErrorMessage`). */
  error?: string;
  /** The task record's `price` and `currency` (live platform), when present. */
  price?: number;
  currency?: string;
  /** `completed_at` of a polled task record, in ms. */
  completedAt?: number;
  /** A webhook event: stored once by `eventId` before it is merged. */
  webhookEvent?: { eventId: string; signedAt: number };
  /** The report is the answer to a poll (counts the poll, clears poll errors). */
  polled?: boolean;
  /** The report is the platform's answer to our submit. */
  submitted?: boolean;
}

/** A task record the platform answered (a poll, or the look before a cancel) as a report. */
export function reportOfTask(
  taskId: string,
  source: TaskEventSource,
  task: TaskWithId,
): PlatformReport {
  const error = taskErrorMessage(task);
  return {
    taskId,
    source,
    platformTaskId: task.task_id,
    status: task.status,
    output: task.output ?? null,
    usageInfo: task.usage_info ?? null,
    ...(error ? { error } : {}),
    ...(typeof task.completed_at === "number" ? { completedAt: task.completed_at } : {}),
    ...costOf(task),
  };
}

/**
 * `price` and `currency` of a task record or event, when the platform sent them; a price sent as
 * a decimal string ("0.12") is kept as its number ({@link priceOf}).
 */
export function costOf(
  record: Record<string, unknown>,
): Pick<PlatformReport, "price" | "currency"> {
  const price = priceOf(record.price);
  const { currency } = record;
  return {
    ...(price !== undefined ? { price } : {}),
    ...(typeof currency === "string" ? { currency } : {}),
  };
}

export interface MergeContext {
  now: number;
  schedule: PollSchedule;
  /** Whether results are archived (ARCHIVE_STORAGE is not `off`). */
  archive: boolean;
  /** Result links are assumed to live this long after completion (spec 8: "usually 24 hours"). */
  fileTtlMs: number;
}

export type MergeOutcome =
  | { kind: "merged"; row: TaskRow; changed: boolean; becameTerminal: boolean }
  | { kind: "task_mismatch"; row: TaskRow };

/** Overture's own states before the platform has a say; any platform status moves them on. */
const PRE_PLATFORM = new Set(["queued", "submitting", "unknown"]);
/** Overture's own end states; the platform cannot move them. */
const LOCAL_FINAL = new Set(["rejected"]);

export const FILE_TTL_MS = 24 * 3_600_000;

/**
 * Merges a report into a task row, forward only (core `mergeStatus`): a late, repeated or
 * out-of-order report never moves a task back, an unknown status is recorded and never applied.
 * Returns a new row; `changed` says whether anything a client sees changed (→ a task event).
 */
export function mergeReport(row: TaskRow, report: PlatformReport, ctx: MergeContext): MergeOutcome {
  if (report.platformTaskId && row.platformTaskId && report.platformTaskId !== row.platformTaskId) {
    return { kind: "task_mismatch", row };
  }
  const now = new Date(ctx.now);
  const next: TaskRow = { ...row, lastEventAt: now };
  let changed = false;

  // A verified report for this task's key proves the platform created it, even when our submit
  // is still in flight or failed ambiguously: adopt the id it names.
  if (!row.platformTaskId && report.platformTaskId) {
    next.platformTaskId = report.platformTaskId;
    changed = true;
  }

  const incoming = report.status;
  const previous = row.status;
  if (incoming !== undefined) {
    if (!isTaskStatus(incoming)) {
      if (next.unknownStatus !== incoming) changed = true;
      next.unknownStatus = incoming;
    } else if (PRE_PLATFORM.has(previous)) {
      next.status = incoming;
      next.error = null;
    } else if (!LOCAL_FINAL.has(previous) && isTaskStatus(previous)) {
      next.status = mergeStatus(previous, incoming).status;
    }
  }
  const statusChanged = next.status !== previous;
  if (statusChanged) changed = true;

  // Output and usage describe the status they came with: a stale report (an in_progress event
  // arriving after success) must not overwrite the result.
  if (incoming !== undefined && incoming === next.status) {
    if (
      report.output &&
      Object.keys(report.output).length > 0 &&
      !sameJson(report.output, row.output)
    ) {
      next.output = report.output;
      changed = true;
    }
    if (
      report.usageInfo &&
      Object.keys(report.usageInfo).length > 0 &&
      !sameJson(report.usageInfo, row.usageInfo)
    ) {
      next.usageInfo = report.usageInfo;
      changed = true;
    }
    if (incoming === "failure" && report.error && report.error !== row.error) {
      next.error = report.error;
      changed = true;
    }
    // `output.file_url`, or `output.url` as some live outputs name it.
    const fileUrl = taskResultUrl({ output: report.output });
    if (incoming === "success" && fileUrl && fileUrl !== row.fileUrl) {
      next.fileUrl = fileUrl;
      // A pre-signed link says when it ends (7 days live); otherwise estimate from completion.
      next.fileExpiresAt = new Date(
        signedLinkExpiresAt(fileUrl) ?? (report.completedAt ?? ctx.now) + ctx.fileTtlMs,
      );
      if (ctx.archive) {
        next.archiveStatus = "pending";
        next.archiveNextAt = now;
      }
      changed = true;
    }
  }

  // Cost is not shown on the task (no event for it), only in its details.
  if (report.price !== undefined) next.price = report.price;
  if (report.currency !== undefined) next.currency = report.currency;

  if (report.submitted && !row.submittedAt) {
    next.submittedAt = now;
    changed = true;
  }
  if (report.polled) {
    next.pollCount = row.pollCount + 1;
    next.pollErrors = 0;
  }

  const becameTerminal = statusChanged && isTerminalStatus(next.status);
  if (isTerminalStatus(next.status)) {
    next.nextPollAt = null;
    if (becameTerminal) next.finishedAt = now;
  } else if (next.status === "waiting" || next.status === "in_progress") {
    next.nextPollAt = new Date(ctx.now + pollDelay(next, report, ctx));
  }
  if (changed) next.updatedAt = now;
  return { kind: "merged", row: next, changed, becameTerminal };
}

function pollDelay(row: TaskRow, report: PlatformReport, ctx: MergeContext): number {
  if (report.submitted) return firstPollDelay(row.webhookExpected, ctx.schedule);
  const startedAt = (row.submittedAt ?? row.createdAt).getTime();
  return nextPollDelay(
    { webhookExpected: row.webhookExpected, startedAt, pollCount: row.pollCount },
    ctx.now,
    ctx.schedule,
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b ?? null);
}
