import { getTableColumns, inArray, sql } from "drizzle-orm";
import { arrayLiteral, inlined, statementName, type Statement } from "../../db/script.ts";
import type { Transaction } from "../../db/client.ts";
import type { Executor } from "../../db/rows.ts";
import { tasks } from "../../db/schema/index.ts";
import type { TaskRow } from "../../db/schema/index.ts";

/** Locks task rows `FOR UPDATE` in id order (a fixed order: concurrent batches cannot deadlock). */
export async function lockTasks(
  tx: Transaction,
  ids: readonly string[],
): Promise<Map<string, TaskRow>> {
  const unique = [...new Set(ids)].sort();
  if (unique.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(tasks)
    .where(inArray(tasks.id, unique))
    .orderBy(tasks.id)
    .for("update");
  return new Map(rows.map((row) => [row.id, row]));
}

const LOCK_TASKS = "select * from tasks where id = any($1::uuid[]) order by id for update";
const LOCK_TASKS_NAME = statementName("overture_lock_tasks", LOCK_TASKS);

/** {@link lockTasks} as a statement (a multi-statement script); rows via {@link taskRowOf}. */
export function lockTasksStatement(sortedIds: readonly string[]): Statement {
  return { name: LOCK_TASKS_NAME, text: LOCK_TASKS, params: [arrayLiteral(sortedIds)] };
}

const COLUMNS = Object.entries(getTableColumns(tasks));

/** A task row from a raw row keyed by column name, converted as drizzle converts its own. */
export function taskRowOf(raw: Record<string, unknown>): TaskRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of COLUMNS) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as TaskRow;
}

/** The mutable columns: property, column and its SQL type in `jsonb_to_recordset`. */
const MUTABLE = [
  ["status", "status", "text"],
  ["platformTaskId", "platform_task_id", "text"],
  ["webhookKeyHash", "webhook_key_hash", "text"],
  ["webhookExpected", "webhook_expected", "boolean"],
  ["title", "title", "text"],
  ["favourite", "favourite", "boolean"],
  ["deletedAt", "deleted_at", "timestamptz"],
  ["output", "output", "jsonb"],
  ["usageInfo", "usage_info", "jsonb"],
  ["price", "price", "float8"],
  ["currency", "currency", "text"],
  ["error", "error", "text"],
  ["unknownStatus", "unknown_status", "text"],
  ["fileUrl", "file_url", "text"],
  ["fileExpiresAt", "file_expires_at", "timestamptz"],
  ["archiveStatus", "archive_status", "text"],
  ["archiveNextAt", "archive_next_at", "timestamptz"],
  ["archiveError", "archive_error", "text"],
  ["archiveAttempts", "archive_attempts", "integer"],
  ["cancelRequestedAt", "cancel_requested_at", "timestamptz"],
  ["submitStartedAt", "submit_started_at", "timestamptz"],
  ["submittedAt", "submitted_at", "timestamptz"],
  ["finishedAt", "finished_at", "timestamptz"],
  ["updatedAt", "updated_at", "timestamptz"],
  ["lastEventAt", "last_event_at", "timestamptz"],
  ["nextPollAt", "next_poll_at", "timestamptz"],
  ["pollCount", "poll_count", "integer"],
  ["pollErrors", "poll_errors", "integer"],
] as const satisfies readonly (readonly [keyof TaskRow, string, string])[];

type Mutable = (typeof MUTABLE)[number];

const same = (a: unknown, b: unknown) =>
  a === b ||
  (a instanceof Date && b instanceof Date
    ? a.getTime() === b.getTime()
    : typeof a === "object" &&
      typeof b === "object" &&
      a !== null &&
      b !== null &&
      JSON.stringify(a) === JSON.stringify(b));

/**
 * Writes the mutable columns of whole task rows (already locked and merged in memory) in one
 * statement, whatever the number of rows: `UPDATE … FROM jsonb_to_recordset(…)`. JSON carries the
 * batch as one literal on both drivers (jsonb: the rows' JSON columns are parsed once, not once
 * as json and again into each column). Given the rows as they were read (`before`, by id),
 * only the columns that changed in some row are written: less to send, and Postgres skips
 * checking the untouched ones.
 */
export async function saveTasks(
  tx: Executor,
  rows: readonly TaskRow[],
  before?: ReadonlyMap<string, TaskRow>,
): Promise<void> {
  const statement = saveTasksStatement(rows, before);
  if (statement) await tx.execute(sql.raw(inlined(statement)));
}

/** {@link saveTasks} as one statement; undefined when nothing changed. */
export function saveTasksStatement(
  rows: readonly TaskRow[],
  before?: ReadonlyMap<string, TaskRow>,
): Statement | undefined {
  const columns: Mutable[] = before
    ? MUTABLE.filter(([key]) =>
        rows.some((r) => {
          const old = before.get(r.id);
          return !old || !same(old[key], r[key]);
        }),
      )
    : [...MUTABLE];
  if (rows.length === 0 || columns.length === 0) return undefined;
  const batch = JSON.stringify(
    rows.map((r) => {
      const values: Record<string, unknown> = { id: r.id };
      for (const [key, column] of columns) values[column] = r[key] ?? null;
      return values;
    }),
  );
  const set = columns.map(([, c]) => `${c} = u.${c}`).join(", ");
  const shape = ["id uuid", ...columns.map(([, c, type]) => `${c} ${type}`)].join(", ");
  // One text (and prepared statement) per set of changed columns: a few in practice. `t.id =
  // any($2)` is for the planner: it counts 100 rows for any jsonb_to_recordset and joined them
  // against a scan of the whole tasks table, a cost that grows with the history; with the ids it
  // reads the rows by primary key (test/intake/plans.test.ts holds it).
  const text = `update tasks as t set ${set}
    from jsonb_to_recordset($1::jsonb) as u(${shape})
    where t.id = u.id and t.id = any($2::uuid[])`;
  const ids = arrayLiteral(rows.map((r) => r.id));
  return { name: statementName("overture_save_tasks", text), text, params: [batch, ids] };
}
