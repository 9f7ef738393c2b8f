import { randomInt } from "node:crypto";
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { shareLinks, tasks, type TaskRow } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { TASK_ACTIVE, UNDO_EXPIRED } from "../../schemas/error-codes.ts";
import type { TaskDeletion, TaskDetails, TaskEstimate, TaskPatch } from "../../schemas/library.ts";
import type { Task } from "../../schemas/task.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { MusicParams } from "@overture/core/music";
import { musicParams } from "../tasks/music-params.ts";
import { priceOf } from "../tasks/price.ts";
import type { TaskRecord } from "../tasks/record.ts";

/** What the library is built from. */
export interface LibraryDeps {
  record: TaskRecord;
  db: AppDatabase;
  clock: Clock;
  /** Creates a task (the `/api/tasks` service of services/dispatch): regenerate submits anew. */
  createTask: (userId: number, params: MusicParams, options: { title?: string }) => Promise<Task>;
}

/** How long a deleted task can be restored before the purge removes it and its audio. */
export const UNDO_WINDOW_MS = 10_000;
/** Tasks still queued or running: deleting them would orphan a platform task. */
const ACTIVE = new Set(["queued", "submitting", "waiting", "in_progress"]);
/** The platform's usual range (spec 8: "usually 1 to 10 minutes"), without history. */
const USUAL = { low: 60, high: 600 };
/** Past tasks an estimate reads at most (the most recent). */
const HISTORY = 50;
/** A past task is similar when its duration and steps are within this factor of the task's. */
const SIMILAR = 1.33;

const secondsBetween = (from: Date | null, to: Date | null) =>
  from && to ? Math.max(0, (to.getTime() - from.getTime()) / 1000) : null;

/** A finite number at `key` of a platform object, if any. */
function numberIn(value: Record<string, unknown> | null | undefined, key: string) {
  const n = value?.[key];
  return typeof n === "number" && Number.isFinite(n) ? n : null;
}

const minutes = (s: number) => (s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`);

/**
 * The library's operations on one task (rename, favourite, delete and restore, details,
 * estimate, regenerate). Renames and deletions go through `record.update`, so the user's other
 * clients see them as task events.
 */
export function createLibrary(deps: LibraryDeps) {
  return { ...libraryEdits(deps), ...libraryReads(deps) };
}

/** Rename and favourite, delete and restore: changes the user's other clients see as events. */
function libraryEdits({ record, clock }: LibraryDeps) {
  return {
    async patch(userId: number, taskId: string, patch: TaskPatch): Promise<Task> {
      const row = await record.owned(userId, taskId);
      const next = await record.update(row.id, "api", (current, now) =>
        current.deletedAt
          ? undefined
          : {
              ...current,
              ...(patch.title !== undefined ? { title: patch.title } : {}),
              ...(patch.favourite !== undefined ? { favourite: patch.favourite } : {}),
              updatedAt: now,
            },
      );
      return record.json(next ?? row);
    },

    /**
     * Hides a finished task at once; the purge removes it and its audio after the undo window.
     * Its share links are revoked for good in the same transaction: whoever deletes a track to
     * stop a leaked link must not see Undo bring the link back (the undo restores the track).
     */
    async remove(userId: number, taskId: string): Promise<TaskDeletion> {
      const row = await record.owned(userId, taskId);
      if (ACTIVE.has(row.status))
        throw new ApiError(409, TASK_ACTIVE, `Task ${taskId} is ${row.status}: cancel it first.`);
      const next = await record.update(
        row.id,
        "api",
        (current, now) =>
          current.deletedAt ? undefined : { ...current, deletedAt: now, updatedAt: now },
        async (tx, deleted, now) => {
          await tx
            .update(shareLinks)
            .set({ revokedAt: now })
            .where(and(eq(shareLinks.taskId, deleted.id), isNull(shareLinks.revokedAt)));
        },
      );
      const deletedAt = next?.deletedAt ?? new Date(clock.now());
      return {
        task: record.json(next ?? row),
        undo_until: new Date(deletedAt.getTime() + UNDO_WINDOW_MS).toISOString(),
      };
    },

    /** Undoes a deletion within its window; 410 after it, and for a task that is not deleted. */
    async restore(userId: number, taskId: string): Promise<Task> {
      const row = await record.owned(userId, taskId, { deleted: true });
      // Set under the row lock: an unchanged row comes back from `update` as it is, so a task
      // that is not deleted would otherwise look restored.
      const outcome = { restored: false, wasDeleted: false };
      const restored = await record.update(row.id, "api", (current, now) => {
        outcome.wasDeleted = current.deletedAt !== null;
        outcome.restored =
          current.deletedAt !== null &&
          now.getTime() - current.deletedAt.getTime() < UNDO_WINDOW_MS;
        return outcome.restored ? { ...current, deletedAt: null, updatedAt: now } : undefined;
      });
      if (!restored || !outcome.restored)
        throw new ApiError(
          410,
          UNDO_EXPIRED,
          outcome.wasDeleted
            ? `Task ${taskId} was deleted more than ${UNDO_WINDOW_MS / 1000} s ago; it cannot be restored.`
            : `Task ${taskId} is not deleted.`,
        );
      return record.json(restored);
    },
  };
}

/** Details, estimate and regenerate: reads of one task, and a new task made from it. */
function libraryReads({ record, db, clock, createTask }: LibraryDeps) {
  return {
    async details(
      userId: number,
      taskId: string,
      audioSeconds: number | null,
    ): Promise<TaskDetails> {
      const row = await record.owned(userId, taskId);
      const text = (key: string) => {
        const value = row.params[key];
        return typeof value === "string" ? value : "";
      };
      const usageSeconds =
        row.usageInfo?.unit === "seconds" ? numberIn(row.usageInfo, "quantity") : null;
      const price =
        row.price ?? priceOf(row.output?.price) ?? priceOf(row.usageInfo?.price) ?? null;
      const currency = [row.currency, row.output?.currency, row.usageInfo?.currency].find(
        (c): c is string => typeof c === "string",
      );
      return {
        task: record.json(row),
        prompt: text("prompt"),
        lyrics: text("lyrics"),
        requested_duration_seconds: numberIn(row.params, "duration"),
        actual_duration_seconds: audioSeconds ?? usageSeconds,
        timings: {
          waiting_seconds: secondsBetween(row.createdAt, row.submittedAt),
          generation_seconds: secondsBetween(row.submittedAt, row.finishedAt),
          total_seconds: secondsBetween(row.createdAt, row.finishedAt),
        },
        price,
        currency: price === null ? null : (currency ?? null),
      };
    },

    /**
     * Time left, from the generation times (submission to success) of the user's most recent
     * similar tasks: duration and steps within a third of this one's. The range is their 10th to
     * 90th percentile; without history, the platform's usual 1–10 minutes.
     */
    async estimate(userId: number, taskId: string): Promise<TaskEstimate> {
      const row = await record.owned(userId, taskId);
      const history = await similarTimes(db, row);
      const sorted = history.sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))] ?? 0;
      const [low, typical, high] =
        sorted.length > 0 ? [at(0.1), at(0.5), at(0.9)] : [USUAL.low, null, USUAL.high];
      const started = row.submittedAt ?? (row.status === "queued" ? null : row.createdAt);
      const elapsed = started ? Math.max(0, (clock.now() - started.getTime()) / 1000) : 0;
      const running = ACTIVE.has(row.status);
      const left = (s: number) => (running ? Math.max(0, s - elapsed) : 0);
      return {
        based_on: sorted.length,
        typical_seconds: typical,
        low_seconds: low,
        high_seconds: high,
        remaining_low_seconds: left(low),
        remaining_high_seconds: left(high),
        summary:
          typical === null
            ? "usually 1–10 minutes"
            : `about ${minutes(typical)} (${minutes(low)}–${minutes(high)}), from your last ${sorted.length} similar task${sorted.length === 1 ? "" : "s"}`,
      };
    },

    /**
     * The same parameters submitted again as a new task, with new seeds when it had seeds. The
     * stored parameters are validated again (400 `invalid_parameters`): they were valid when
     * stored, but the rules may have changed since.
     */
    async regenerate(userId: number, taskId: string): Promise<Task> {
      const row = await record.owned(userId, taskId);
      const params = { ...row.params };
      if (Array.isArray(params.seeds) && params.seeds.length > 0)
        params.seeds = params.seeds.map(() => randomInt(0, 2 ** 47));
      return createTask(userId, musicParams(params), { title: row.title });
    },
  };
}

/** Generation times (seconds) of the user's recent successful tasks similar to `row`. */
async function similarTimes(db: AppDatabase, row: TaskRow): Promise<number[]> {
  const duration = numberIn(row.params, "duration");
  const steps = numberIn(row.params, "infer_steps");
  const within = (key: "duration" | "infer_steps", value: number | null) =>
    value === null
      ? undefined
      : sql`(case when jsonb_typeof(${tasks.params}->${sql.raw(`'${key}'`)}) = 'number'
          then (${tasks.params}->>${sql.raw(`'${key}'`)})::float8 end) between ${value / SIMILAR} and ${value * SIMILAR}`;
  const rows = await db
    .select({ submittedAt: tasks.submittedAt, finishedAt: tasks.finishedAt })
    .from(tasks)
    .where(
      and(
        eq(tasks.userId, row.userId),
        eq(tasks.status, "success"),
        isNull(tasks.deletedAt),
        isNotNull(tasks.submittedAt),
        isNotNull(tasks.finishedAt),
        within("duration", duration),
        within("infer_steps", steps),
      ),
    )
    .orderBy(desc(tasks.createdAt))
    .limit(HISTORY);
  return rows
    .map((r) => secondsBetween(r.submittedAt, r.finishedAt))
    .filter((s): s is number => s !== null);
}

export type Library = ReturnType<typeof createLibrary>;
