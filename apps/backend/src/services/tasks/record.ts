import { and, eq, isNull } from "drizzle-orm";
import type { AppDatabase, Transaction } from "../../db/client.ts";
import { tasks, type TaskEventSource, type TaskRow } from "../../db/schema/index.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import { ApiError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { TASK_NOT_FOUND } from "../../schemas/error-codes.ts";
import { appendTaskEvents } from "../events/append.ts";
import { applyReports, type ApplyContext, type ApplyResult } from "./apply.ts";
import { FILE_TTL_MS, type PlatformReport } from "./merge.ts";
import { DEFAULT_EXPECTED_DURATION_MS } from "./schedule.ts";
import { saveTasks } from "./store.ts";
import { toTaskJson } from "./task-json.ts";
import type { Task } from "../../schemas/task.ts";

/** What the task record reads and writes with. */
export interface RecordDeps {
  db: AppDatabase;
  clock: Clock;
  config: Pick<Config, "archive" | "publicUrl">;
  logger: Logger;
  /** Randomness of poll jitter (tests fix it). */
  random?: () => number;
  /** Expected upper bound of a task's duration (spec 8: usually 1 to 10 minutes). */
  expectedDurationMs?: number;
}

export interface Account {
  userId: number;
  namespace: string;
}

/** A task's callback key, as stored (hashed), once the task holding it is committed. */
export interface IssuedCallbackKey extends Account {
  keyHash: string;
  taskId: string;
}

/**
 * The task record: the merge context, the one transaction shape that applies platform reports,
 * and local state changes that append task events the same way. Every wing that changes a task
 * (dispatch, library, intake, archive) changes it through here.
 */
export function createTaskRecord(deps: RecordDeps) {
  const random = deps.random ?? Math.random;
  const freedListeners: ((accounts: Account[]) => void)[] = [];

  const applyContext = (): ApplyContext => ({
    now: deps.clock.now(),
    schedule: {
      expectedDurationMs: deps.expectedDurationMs ?? DEFAULT_EXPECTED_DURATION_MS,
      random,
    },
    archive: deps.config.archive.storage !== "off",
    fileTtlMs: FILE_TTL_MS,
    publicUrl: deps.config.publicUrl,
  });

  const record = {
    /** The randomness of poll schedules (schedule.ts), fixed by tests. */
    random,
    applyContext,
    json: (row: TaskRow) => toTaskJson(row, deps.config.publicUrl),

    /**
     * Calls `listener` after a commit in which tasks reached a terminal state, once per commit
     * with their accounts (a webhook batch ends tasks of many accounts at once).
     */
    onFreed(listener: (accounts: Account[]) => void): void {
      freedListeners.push(listener);
    },

    /** Tells the listeners which accounts just freed quota (after the commit). */
    committed(result: ApplyResult): void {
      if (result.freed.length === 0) return;
      for (const listener of freedListeners) {
        try {
          listener(result.freed);
        } catch (error) {
          deps.logger.warn({ err: errorMessage(error) }, "freed-quota listener failed");
        }
      }
    },

    /** Applies reports in their own transaction (polls, submit and cancel answers). */
    async apply(reports: PlatformReport[]): Promise<ApplyResult> {
      const result = await deps.db.transaction((tx) => applyReports(tx, reports, applyContext()));
      record.committed(result);
      return result;
    },

    /**
     * Changes a task locally (Overture's own states: queued, submitting, unknown, rejected,
     * cancelled-while-queued) under a row lock; `change` returns the new row, or undefined to
     * leave it. The change is appended as a task event when anything a client sees changed;
     * `alsoWrite` writes what goes with it (other tables) in the same transaction.
     */
    async update(
      taskId: string,
      source: TaskEventSource,
      change: (row: TaskRow, now: Date) => TaskRow | undefined,
      alsoWrite?: (tx: Transaction, next: TaskRow, now: Date) => Promise<void>,
    ): Promise<TaskRow | undefined> {
      return deps.db.transaction(async (tx) => {
        const [row] = await tx.select().from(tasks).where(eq(tasks.id, taskId)).for("update");
        if (!row) return undefined;
        const now = new Date(deps.clock.now());
        const next = change(row, now);
        if (!next) return row;
        await record.save(tx, [next], source, [row]);
        await alsoWrite?.(tx, next, now);
        return next;
      });
    },

    /** Saves changed rows and appends an event for each row whose JSON changed. */
    save: (tx: Transaction, rows: TaskRow[], source: TaskEventSource, before?: TaskRow[]) =>
      saveWithEvents(tx, { rows, source, before, json: record.json }),

    /**
     * The task if it belongs to the user and is not deleted; 404 otherwise (another user's task
     * does not exist for them). `deleted: true` also finds a deleted one (restore).
     */
    owned: (userId: number, taskId: string, options: { deleted?: boolean } = {}) =>
      ownedTask(deps.db, userId, taskId, options),
  };
  return record;
}

/** Saves changed rows and appends an event for each row whose JSON changed. */
async function saveWithEvents(
  tx: Transaction,
  changes: {
    rows: TaskRow[];
    source: TaskEventSource;
    before: TaskRow[] | undefined;
    json: (row: TaskRow) => Task;
  },
): Promise<void> {
  const { rows, source, before, json } = changes;
  await saveTasks(tx, rows);
  const events = rows
    .filter(
      (row, i) => !before?.[i] || JSON.stringify(json(row)) !== JSON.stringify(json(before[i])),
    )
    .map((row) => ({
      userId: row.userId,
      taskId: row.id,
      status: row.status,
      source,
      payload: json(row),
      createdAt: row.updatedAt,
    }));
  await appendTaskEvents(tx, events);
}

/** The user's task `taskId` (not deleted, unless `deleted`), or 404 `task_not_found`. */
async function ownedTask(
  db: AppDatabase,
  userId: number,
  taskId: string,
  options: { deleted?: boolean },
): Promise<TaskRow> {
  const [row] = isTaskId(taskId)
    ? await db
        .select()
        .from(tasks)
        .where(
          and(
            eq(tasks.id, taskId),
            eq(tasks.userId, userId),
            options.deleted ? undefined : isNull(tasks.deletedAt),
          ),
        )
        .limit(1)
    : [];
  if (!row) throw new ApiError(404, TASK_NOT_FOUND, `No task ${taskId} among your tasks.`);
  return row;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` can be a task id at all (Postgres refuses a uuid comparison with anything else). */
export const isTaskId = (id: string): boolean => UUID.test(id);

export type TaskRecord = ReturnType<typeof createTaskRecord>;
