import { sql } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import { storableId, storableObject, storableText } from "../../lib/storable.ts";
import { appendTaskEvents, type NewTaskEvent } from "../events/append.ts";
import { mergeReport, type MergeContext, type PlatformReport } from "./merge.ts";
import { queryRows } from "../../db/rows.ts";
import { lockTasks, saveTasks } from "./store.ts";
import type { TaskRow } from "../../db/schema/index.ts";
import { toTaskJson } from "./task-json.ts";

export type ReportOutcome = "accepted" | "duplicate" | "task_mismatch" | "not_found";

export interface ApplyContext extends MergeContext {
  publicUrl: string;
}

export interface ApplyResult {
  /** One per report, in order. */
  outcomes: ReportOutcome[];
  /** One per report: whether it changed what a client sees (and so appended a task event). */
  changed: boolean[];
  /** The rows after the merge, by task id. */
  rows: Map<string, TaskRow>;
  /** Accounts where a task just ended: their local queue may drain now. */
  freed: { userId: number; namespace: string }[];
}

/**
 * Applies platform reports in one transaction — the single merge path of webhooks (a whole group
 * commit batch at once), polls, submit and cancel responses:
 *   1. lock the tasks in id order;
 *   2. store webhook events once by `event_id` (`ON CONFLICT DO NOTHING`; a duplicate changes
 *      nothing);
 *   3. merge each report in order in memory (several reports for one task chain);
 *   4. one UPDATE for every touched task, then append and announce the task events.
 */
export async function applyReports(
  tx: Transaction,
  given: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  const reports = given.map(storableReport);
  const rows = await lockTasks(
    tx,
    reports.map((r) => r.taskId),
  );
  const outcomes: ReportOutcome[] = reports.map((r) => {
    const row = rows.get(r.taskId);
    if (!row) return "not_found";
    if (r.platformTaskId && row.platformTaskId && r.platformTaskId !== row.platformTaskId)
      return "task_mismatch";
    return "accepted";
  });
  await storeWebhookEvents(tx, reports, outcomes, ctx.now);

  const touched = new Map<string, TaskRow>();
  const events: NewTaskEvent[] = [];
  const freed: ApplyResult["freed"] = [];
  const changed = reports.map(() => false);
  reports.forEach((report, i) => {
    const current = touched.get(report.taskId) ?? rows.get(report.taskId);
    if (outcomes[i] !== "accepted" || !current) return;
    const merged = mergeReport(current, report, ctx);
    if (merged.kind === "task_mismatch") {
      outcomes[i] = "task_mismatch";
      return;
    }
    touched.set(report.taskId, merged.row);
    if (merged.becameTerminal)
      freed.push({ userId: merged.row.userId, namespace: merged.row.namespace });
    changed[i] = merged.changed;
    if (merged.changed) {
      events.push({
        userId: merged.row.userId,
        taskId: merged.row.id,
        status: merged.row.status,
        source: report.source,
        payload: toTaskJson(merged.row, ctx.publicUrl),
        createdAt: new Date(ctx.now),
      });
    }
  });

  await saveTasks(tx, [...touched.values()]);
  await appendTaskEvents(tx, events);
  for (const [id, row] of touched) rows.set(id, row);
  return { outcomes, changed, rows, freed };
}

/**
 * The report with every value the platform chose made storable (lib/storable.ts): one the
 * database refuses would fail the transaction on every retry, and the task would never move.
 */
function storableReport(report: PlatformReport): PlatformReport {
  const text = (value: string | undefined) =>
    value === undefined ? undefined : storableText(value);
  return {
    ...report,
    ...(report.platformTaskId !== undefined
      ? { platformTaskId: storableId(report.platformTaskId) }
      : {}),
    ...(report.status !== undefined ? { status: text(report.status) } : {}),
    ...(report.error !== undefined ? { error: text(report.error) } : {}),
    ...(report.currency !== undefined ? { currency: text(report.currency) } : {}),
    ...(report.output !== undefined ? { output: storableObject(report.output) } : {}),
    ...(report.usageInfo !== undefined ? { usageInfo: storableObject(report.usageInfo) } : {}),
    ...(report.webhookEvent
      ? {
          webhookEvent: {
            ...report.webhookEvent,
            eventId: storableId(report.webhookEvent.eventId),
          },
        }
      : {}),
  };
}

/** Inserts the batch's webhook events; marks the ones already stored (or repeated) as duplicates. */
async function storeWebhookEvents(
  tx: Transaction,
  reports: readonly PlatformReport[],
  outcomes: ReportOutcome[],
  now: number,
): Promise<void> {
  const firstIndex = new Map<string, { i: number; report: PlatformReport }>();
  reports.forEach((report, i) => {
    if (!report.webhookEvent || outcomes[i] !== "accepted") return;
    if (firstIndex.has(report.webhookEvent.eventId)) outcomes[i] = "duplicate";
    else firstIndex.set(report.webhookEvent.eventId, { i, report });
  });
  if (firstIndex.size === 0) return;
  // Sorted by event_id: two batches inserting overlapping ids wait on each other in one order.
  const batch = JSON.stringify(
    [...firstIndex.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([eventId, { report }]) => ({
        event_id: eventId,
        task_id: report.taskId,
        status: report.status ?? "",
        signed_at: report.webhookEvent?.signedAt,
      })),
  );
  const inserted = await queryRows<{ event_id: string }>(
    tx,
    sql`
    insert into webhook_events (event_id, task_id, status, signed_at, received_at)
    select e.event_id, e.task_id, e.status, e.signed_at, ${new Date(now).toISOString()}::timestamptz
    from json_to_recordset(${batch}::json) as e(event_id text, task_id uuid, status text, signed_at bigint)
    order by e.event_id
    on conflict (event_id) do nothing
    returning event_id`,
  );
  const stored = new Set(inserted.map((row) => row.event_id));
  for (const [eventId, { i }] of firstIndex) if (!stored.has(eventId)) outcomes[i] = "duplicate";
}
