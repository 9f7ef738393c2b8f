import { sql } from "drizzle-orm";
import type { Transaction } from "../../db/client.ts";
import { storableId, storableObject, storableText } from "../../lib/storable.ts";
import { appendTaskEventsStatement, lastIdOf, type NewTaskEvent } from "../events/append.ts";
import { mergeReport, type MergeContext, type PlatformReport } from "./merge.ts";
import { queryRows } from "../../db/rows.ts";
import { lockTasks, saveTasksStatement } from "./store.ts";
import { arrayLiteral, inlined, statementName, type Statement } from "../../db/script.ts";
import type { TaskRow } from "../../db/schema/index.ts";
import { toTaskJson } from "./task-json.ts";

export type ReportOutcome = "accepted" | "duplicate" | "task_mismatch" | "not_found";

export interface ApplyContext extends MergeContext {
  publicUrl: string;
  /** The caller announces the appended task events after commit (services/events/announcer.ts). */
  announceAfterCommit?: boolean;
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
  /** The highest task event id appended, when any. */
  lastEventId?: bigint;
}

/**
 * How a batch reaches the database, in two steps: a transaction runs each statement as its own
 * round trip (drizzle, both drivers); a multi-statement script (apply-batch.ts) sends each step
 * as one message. Both take the same statements (db/script.ts: text with `$n` and the
 * values), built without a query builder on the hot path: the transaction inlines the values,
 * the script may run them prepared.
 */
export interface ApplySteps {
  /** Locks the tasks (sorted ids) `FOR UPDATE` and runs the event insert; answers the rows and
   * the event ids it stored. */
  lockAndStore(ids: readonly string[], store: Statement | undefined): Promise<LockedAndStored>;
  /** Runs the writes in order; answers the last row of the last one. */
  write(statements: readonly Statement[]): Promise<Record<string, unknown> | undefined>;
}

export interface LockedAndStored {
  rows: TaskRow[];
  stored: string[];
}

/** The steps in a drizzle transaction: one round trip per statement. */
export function transactionSteps(tx: Transaction): ApplySteps {
  return {
    async lockAndStore(ids, store) {
      const rows = [...(await lockTasks(tx, ids)).values()];
      const stored = store
        ? await queryRows<{ event_id: string }>(tx, sql.raw(inlined(store)))
        : [];
      return { rows, stored: stored.map((row) => row.event_id) };
    },
    async write(statements) {
      let last: Record<string, unknown> | undefined;
      for (const statement of statements) {
        last = (await queryRows<Record<string, unknown>>(tx, sql.raw(inlined(statement)))).at(-1);
      }
      return last;
    },
  };
}

/**
 * Applies platform reports in one transaction — the single merge path of webhooks (a whole group
 * commit batch at once), polls, submit and cancel responses:
 *   1. lock the tasks in id order, and store webhook events once by `event_id` (`ON CONFLICT DO
 *      NOTHING`; a duplicate changes nothing);
 *   2. merge each report in order in memory (several reports for one task chain);
 *   3. one UPDATE of the changed columns of every touched task, then append (and announce,
 *      unless the caller does after commit) the task events.
 */
export async function applyReports(
  tx: Transaction,
  given: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  return applyWithSteps(transactionSteps(tx), given, ctx);
}

export async function applyWithSteps(
  steps: ApplySteps,
  given: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  const reports = given.map(storableReport);
  const ids = [...new Set(reports.map((r) => r.taskId))].sort();
  const locked = await steps.lockAndStore(ids, storeWebhookEventsStatement(reports, ctx.now));
  const rows = new Map(locked.rows.map((row) => [row.id, row]));
  const outcomes: ReportOutcome[] = reports.map((r) => {
    const row = rows.get(r.taskId);
    if (!row) return "not_found";
    if (r.platformTaskId && row.platformTaskId && r.platformTaskId !== row.platformTaskId)
      return "task_mismatch";
    return "accepted";
  });
  markDuplicates(reports, outcomes, new Set(locked.stored));

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

  const save = saveTasksStatement([...touched.values()], rows);
  const append = appendTaskEventsStatement(events, !ctx.announceAfterCommit);
  const last = await steps.write([save, append].filter((s) => s !== undefined));
  for (const [id, row] of touched) rows.set(id, row);
  const lastEventId = append ? lastIdOf(last) : undefined;
  return { outcomes, changed, rows, freed, ...(lastEventId === undefined ? {} : { lastEventId }) };
}

/**
 * The report with every value the platform chose made storable (lib/storable.ts): one the
 * database refuses would fail the transaction on every retry, and the task would never move.
 * The same object when every value already is (nearly always): this runs for every webhook.
 */
function storableReport(report: PlatformReport): PlatformReport {
  const text = (value: string | undefined) =>
    value === undefined ? undefined : storableText(value);
  const platformTaskId =
    report.platformTaskId === undefined ? undefined : storableId(report.platformTaskId);
  const status = text(report.status);
  const error = text(report.error);
  const currency = text(report.currency);
  const output = storableObject(report.output);
  const usageInfo = storableObject(report.usageInfo);
  const event = report.webhookEvent;
  const eventId = event && storableId(event.eventId);
  const unchanged =
    platformTaskId === report.platformTaskId &&
    status === report.status &&
    error === report.error &&
    currency === report.currency &&
    output === report.output &&
    usageInfo === report.usageInfo &&
    eventId === event?.eventId;
  if (unchanged) return report;
  return {
    ...report,
    ...(platformTaskId !== undefined ? { platformTaskId } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(currency !== undefined ? { currency } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(usageInfo !== undefined ? { usageInfo } : {}),
    ...(event && eventId !== undefined ? { webhookEvent: { ...event, eventId } } : {}),
  };
}

// json, not jsonb: these few short fields are read faster from json text. Sorted by event_id:
// two batches inserting overlapping ids wait on each other in one order. `t.id = any($3)`: as in
// saveTasksStatement, without the ids the planner scans the whole tasks table for the join.
const STORE_WEBHOOK_EVENTS_TEXT = `
    insert into webhook_events (event_id, task_id, status, signed_at, received_at)
    select e.event_id, e.task_id, e.status, e.signed_at, $2::timestamptz
    from json_to_recordset($1::json) as e(
      ord integer, event_id text, task_id uuid, platform_task_id text, status text, signed_at bigint)
    join tasks t on t.id = e.task_id and t.id = any($3::uuid[])
    where nullif(e.platform_task_id, '') is null or nullif(t.platform_task_id, '') is null
      or e.platform_task_id = t.platform_task_id
    order by e.event_id, e.ord
    on conflict (event_id) do nothing
    returning event_id`;
const STORE_WEBHOOK_EVENTS = {
  text: STORE_WEBHOOK_EVENTS_TEXT,
  name: statementName("overture_store_webhook_events", STORE_WEBHOOK_EVENTS_TEXT),
};

/**
 * The insert of the batch's webhook events, in one statement: every report that carries an event
 * and passes the pre-merge check (its task exists and names no other platform task) — the same
 * check {@link applyWithSteps} makes in memory, so it can run before the rows are back. The first
 * occurrence of an `event_id` wins; answers the ids stored.
 */
export function storeWebhookEventsStatement(
  reports: readonly PlatformReport[],
  now: number,
): Statement | undefined {
  const candidates = reports.flatMap((report, ord) =>
    report.webhookEvent
      ? [
          {
            ord,
            event_id: report.webhookEvent.eventId,
            task_id: report.taskId,
            platform_task_id: report.platformTaskId ?? null,
            status: report.status ?? "",
            signed_at: report.webhookEvent.signedAt,
          },
        ]
      : [],
  );
  if (candidates.length === 0) return undefined;
  return {
    ...STORE_WEBHOOK_EVENTS,
    params: [
      JSON.stringify(candidates),
      new Date(now).toISOString(),
      arrayLiteral([...new Set(candidates.map((c) => c.task_id))]),
    ],
  };
}

/** Marks as duplicates the accepted reports whose event was stored before, or earlier in the batch. */
function markDuplicates(
  reports: readonly PlatformReport[],
  outcomes: ReportOutcome[],
  stored: ReadonlySet<string>,
): void {
  const seen = new Set<string>();
  reports.forEach((report, i) => {
    const eventId = report.webhookEvent?.eventId;
    if (eventId === undefined || outcomes[i] !== "accepted") return;
    if (seen.has(eventId) || !stored.has(eventId)) outcomes[i] = "duplicate";
    seen.add(eventId);
  });
}
