import { isTerminalStatus } from "@overture/core/task";
import type { DeliveryView, EmulatorControl } from "@overture/platform-emulator";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { AppDatabase } from "../../src/db/client.ts";
import { selectRows } from "./sql.ts";

/**
 * The books of a webhook fault test: what the platform emitted, what reached the backend, what
 * it stored and what it applied, for a set of tasks. Read from both sides: the emulator's
 * delivery records (with the backend's answer to every attempt) and the backend's database.
 *
 * - sent: distinct `event_id`s the emulator emitted (a `duplicate` fault's copy shares its id).
 * - dropped: emitted but never sent (the `drop` fault); polling must make up for them.
 * - delivered: events with at least one 2xx answer.
 * - stored: `webhook_events` rows of those tasks (one per `event_id`, a primary key).
 * - applied: commits of an event by the intake. An attempt that committed answers `accepted`,
 *   every later one `duplicate`; an attempt whose answer was lost (connection cut, process
 *   killed after the commit) shows as a failed attempt followed by `duplicate` answers only, and
 *   counts once. An event with two `accepted` answers was applied twice.
 */
export interface Ledger {
  sent: number;
  dropped: number;
  delivered: number;
  stored: number;
  applied: number;
  /** Events whose commit the backend never got to announce (answer lost). */
  committedUnanswered: number;
  /** Events answered `accepted` more than once (must be empty). */
  appliedTwice: string[];
  /** Delivered events missing from the database (must be empty). */
  lost: string[];
  /** Stored events the emulator never emitted (must be empty). */
  invented: string[];
  /** Records the emulator gave up on after every retry (must be empty). */
  failedRecords: number;
  /** Attempts per backend answer status, e.g. { "200": 90, "503": 41 }. */
  answers: Record<string, number>;
}

export function eventAnswers(record: DeliveryView): ("accepted" | "duplicate" | "failed")[] {
  return record.attempts.map((a) => {
    if (a.outcome !== "success") return "failed";
    return a.bodySummary?.includes('"accepted"') ? "accepted" : "duplicate";
  });
}

export async function readLedger(
  control: EmulatorControl,
  db: AppDatabase,
  platformTaskIds: readonly string[],
): Promise<Ledger> {
  const ids = new Set(platformTaskIds);
  const records = control.listDeliveries().filter((r) => ids.has(r.taskId));
  const byEvent = new Map<string, DeliveryView[]>();
  for (const record of records) {
    byEvent.set(record.eventId, [...(byEvent.get(record.eventId) ?? []), record]);
  }
  const rows =
    platformTaskIds.length === 0
      ? []
      : await selectRows<{ event_id: string }>(
          db,
          sql`select w.event_id from webhook_events w join tasks t on t.id = w.task_id
              where t.platform_task_id in ${[...ids]}`,
        );
  const stored = new Set(rows.map((r) => r.event_id));

  const answers: Record<string, number> = {};
  let dropped = 0;
  let delivered = 0;
  let applied = 0;
  let committedUnanswered = 0;
  const appliedTwice: string[] = [];
  const lost: string[] = [];
  for (const [eventId, copies] of byEvent) {
    for (const attempt of copies.flatMap((r) => r.attempts)) {
      const key = String(attempt.responseStatus ?? attempt.outcome);
      answers[key] = (answers[key] ?? 0) + 1;
    }
    if (copies.every((r) => r.state === "dropped")) {
      dropped += 1;
      continue;
    }
    const outcomes = copies.flatMap(eventAnswers);
    const accepted = outcomes.filter((o) => o === "accepted").length;
    if (outcomes.some((o) => o !== "failed")) delivered += 1;
    if (accepted > 1) appliedTwice.push(eventId);
    if (accepted > 0) applied += accepted;
    else if (stored.has(eventId)) {
      applied += 1;
      committedUnanswered += 1;
    }
    if (outcomes.some((o) => o !== "failed") && !stored.has(eventId)) lost.push(eventId);
  }
  return {
    sent: byEvent.size,
    dropped,
    delivered,
    stored: stored.size,
    applied,
    committedUnanswered,
    appliedTwice,
    lost,
    invented: [...stored].filter((id) => !byEvent.has(id)),
    failedRecords: records.filter((r) => r.state === "failed").length,
    answers,
  };
}

/** One line a person reads in the test output (the issue asks for the counts to be printed). */
/**
 * The books balance: no delivery given up, nothing lost, invented or applied twice, and every
 * event the platform did not drop was delivered, stored and applied exactly once.
 */
export function expectBalanced(ledger: Ledger): void {
  expect(ledger.failedRecords).toBe(0);
  expect(ledger.lost).toEqual([]);
  expect(ledger.invented).toEqual([]);
  expect(ledger.appliedTwice).toEqual([]);
  expect(ledger.delivered).toBe(ledger.sent - ledger.dropped);
  expect(ledger.stored).toBe(ledger.delivered);
  expect(ledger.applied).toBe(ledger.stored);
}

export function printLedger(title: string, ledger: Ledger, extra: Record<string, unknown> = {}) {
  const fields = {
    sent: ledger.sent,
    dropped: ledger.dropped,
    delivered: ledger.delivered,
    stored: ledger.stored,
    applied: ledger.applied,
    committed_unanswered: ledger.committedUnanswered,
    answers: ledger.answers,
    ...extra,
  };
  console.log(`[ledger] ${title}: ${JSON.stringify(fields)}`);
}

/** Webhook deliveries of these tasks still on their way (scheduled, in flight or held). */
export function deliveriesPending(
  control: EmulatorControl,
  platformTaskIds: readonly string[],
): number {
  const ids = new Set(platformTaskIds);
  return control
    .listDeliveries()
    .filter((r) => ids.has(r.taskId) && !["succeeded", "failed", "dropped"].includes(r.state))
    .length;
}

/** Whether the emulator has finished every one of these tasks. */
export function platformFinished(control: EmulatorControl, platformTaskIds: readonly string[]) {
  return platformTaskIds.every((id) => isTerminalStatus(control.getTask(id)?.status ?? "waiting"));
}

const RANK: Record<string, number> = {
  queued: 0,
  submitting: 1,
  unknown: 1,
  waiting: 2,
  in_progress: 3,
};
const rank = (status: string) => RANK[status] ?? 4;

/**
 * Tasks whose recorded history (task_events, in id order) ever moved back: a lower rank after a
 * higher one, or any change after a terminal status. Returns "<task>: a → b" lines.
 */
export async function backwardMoves(db: AppDatabase, taskIds: readonly string[]) {
  if (taskIds.length === 0) return [];
  const rows = await selectRows<{ task_id: string; status: string }>(
    db,
    sql`select task_id::text, status from task_events where task_id in ${[...taskIds]} order by task_events.id`,
  );
  const last = new Map<string, string>();
  const moves: string[] = [];
  for (const row of rows) {
    const before = last.get(row.task_id);
    if (before !== undefined && before !== row.status) {
      if (rank(row.status) < rank(before) || (rank(before) === 4 && rank(row.status) === 4))
        moves.push(`${row.task_id}: ${before} → ${row.status}`);
    }
    last.set(row.task_id, row.status);
  }
  return moves;
}
