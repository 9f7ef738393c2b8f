import { sql } from "drizzle-orm";
import { TASK_EVENTS_CHANNEL } from "../../db/channels.ts";
import { queryRows, type Executor } from "../../db/rows.ts";
import { inlined, statementName, type Statement } from "../../db/script.ts";
import type { TaskEventSource } from "../../db/schema/index.ts";
import type { Task } from "../../schemas/task.ts";

/**
 * Transaction-scoped advisory lock taken right before every task_events INSERT. It serialises
 * appenders from id assignment to commit, so ids become visible in increasing order and a reader
 * that resumes after id N never skips a row committed later with a smaller id. Migration 0006
 * takes it too, by its number, to read the sequence with no append in flight.
 */
const TASK_EVENTS_LOCK_KEY = 7_324_002;

export interface NewTaskEvent {
  userId: number;
  taskId: string;
  status: string;
  source: TaskEventSource;
  payload: Task;
  createdAt: Date;
}

/**
 * Appends task events in the caller's transaction and, unless `announce` is false, announces them
 * (NOTIFY is delivered on commit). The one way to write task_events: intake, reconciler, submit,
 * cancel and the queue all use it. Call it last in a transaction, after every row lock, so the
 * advisory lock is never held while waiting for a row. Resolves to the highest id appended; with
 * `announce: false` the caller announces it after commit (services/events/announcer.ts).
 */
export async function appendTaskEvents(
  tx: Executor,
  events: readonly NewTaskEvent[],
  options: { announce?: boolean } = {},
): Promise<bigint | undefined> {
  const statement = appendTaskEventsStatement(events, options.announce ?? true);
  if (!statement) return undefined;
  const [row] = await queryRows<{ last_id: string | null }>(tx, sql.raw(inlined(statement)));
  return lastIdOf(row);
}

/** The highest id from the statement's one row, read as text (none when nothing was appended). */
export const lastIdOf = (row: { last_id?: unknown } | undefined): bigint | undefined =>
  typeof row?.last_id === "string" ? BigInt(row.last_id) : undefined;

/** The append with `$1` the events as JSON, and what it answers (announcing them or not). */
function appendText(announce: boolean): string {
  const last = announce
    ? `select pg_notify('${TASK_EVENTS_CHANNEL}', max(id)::text), max(id)::text as last_id from inserted`
    : `select max(id)::text as last_id from inserted`;
  // One round trip: the lock is an InitPlan behind a one-time filter, so it is taken before the
  // first row reaches the INSERT, i.e. before any id is drawn (EXPLAIN: "One-Time Filter").
  // Every appender waits for this section, so the separate lock statement this saves is saved for
  // all of them (BENCHMARKS.md, intake notes).
  // jsonb: each payload is parsed once.
  return `
    with inserted as (
      insert into task_events (user_id, task_id, status, source, payload, created_at)
      select e.user_id, e.task_id, e.status, e.source, e.payload, e.created_at
      from jsonb_to_recordset($1::jsonb) as e(
        ord integer, user_id bigint, task_id uuid, status text, source text, payload jsonb, created_at timestamptz)
      where (select 1 from (select pg_advisory_xact_lock(${TASK_EVENTS_LOCK_KEY})) as lock) = 1
      order by e.ord
      returning id
    )
    ${last}`;
}

const named = (text: string) => ({ text, name: statementName("overture_append_events", text) });
const APPEND_QUIET = named(appendText(false));
const APPEND_ANNOUNCED = named(appendText(true));

/**
 * The append as one statement answering `last_id` (undefined when there is nothing to append).
 */
export function appendTaskEventsStatement(
  events: readonly NewTaskEvent[],
  announce: boolean,
): Statement | undefined {
  if (events.length === 0) return undefined;
  const batch = JSON.stringify(
    events.map((e, ord) => ({
      ord,
      user_id: e.userId,
      task_id: e.taskId,
      status: e.status,
      source: e.source,
      payload: e.payload,
      created_at: e.createdAt,
    })),
  );
  return { ...(announce ? APPEND_ANNOUNCED : APPEND_QUIET), params: [batch] };
}
