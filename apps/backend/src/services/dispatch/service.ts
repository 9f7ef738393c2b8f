import { and, eq, sql } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { tasks } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { createCanceller } from "./cancel.ts";
import { defaultTitle } from "../tasks/title.ts";
import { listTasks, type ListQuery } from "../tasks/list.ts";
import type { TaskQueue } from "./queue.ts";
import { askQuota, freeQuota } from "./quota.ts";
import { isQuotaCheckHold } from "./submit.ts";
import type { DispatchDeps } from "./deps.ts";
import type { Quota, Task, TaskPage } from "../../schemas/task.ts";
import type { MusicParams } from "@overture/core/music";
import { NO_TOKEN_SELECTED } from "../../schemas/error-codes.ts";

/** Creating, listing, reading and cancelling the user's tasks (the `/api/tasks` routes). */
export function createTaskService(deps: DispatchDeps, queue: TaskQueue) {
  const { db } = deps;
  const canceller = createCanceller(deps);

  async function selection(userId: number) {
    const selected = await deps.selections.get(userId);
    if (!selected) {
      throw new ApiError(
        400,
        NO_TOKEN_SELECTED,
        "Choose an access token for tasks first (PUT /api/selection).",
      );
    }
    return selected;
  }

  return {
    /**
     * Checks the quota with the selected token's proxy token, stores the task as `queued` and
     * drains the account's queue: the task is submitted now when quota is free and it is first in
     * line, else it waits (spec 8: client-side queueing). `params` are valid already, checked once
     * where they come in: by the route's body schema (core's `musicParamsSchema`), or by the
     * library for a regenerated task's stored ones.
     */
    async create(
      userId: number,
      params: MusicParams,
      options: { title?: string } = {},
    ): Promise<Task> {
      const selected = await selection(userId);
      const account = { userId, namespace: selected.namespace };
      // Also proves the token works before a task is stored. A 429 with a `Retry-After` longer
      // than the client waits (backend.ts) stores the task and holds the queue that long (spec 8:
      // client-side queueing); any other failure refuses it.
      const quota = await askQuota(deps, account, selected.tokenId).then(
        (reading) => ({ ok: true as const, reading }),
        (error: unknown) => {
          if (!isQuotaCheckHold(error)) throw error;
          return { ok: false as const, error };
        },
      );
      const row = await insertQueued(deps, { userId, ...selected }, params, options.title);
      if (quota.ok) await queue.drain(account, freeQuota(quota.reading));
      else await queue.holdAfterRefusedCheck(account, quota.error);
      return deps.record.json(await deps.record.owned(userId, row.id));
    },

    async list(userId: number, query: ListQuery): Promise<TaskPage> {
      const { rows, nextCursor } = await listTasks(db, userId, query);
      return { tasks: rows.map(deps.record.json), next_cursor: nextCursor };
    },

    async get(userId: number, taskId: string): Promise<Task> {
      return deps.record.json(await deps.record.owned(userId, taskId));
    },

    async cancel(userId: number, taskId: string): Promise<{ task: Task; pending: boolean }> {
      const { row, pending } = await canceller.cancel(userId, taskId);
      return { task: deps.record.json(row), pending };
    },

    async quota(userId: number): Promise<Quota> {
      const selected = await selection(userId);
      const reading = await askQuota(
        deps,
        { userId, namespace: selected.namespace },
        selected.tokenId,
      );
      return {
        available: reading.available ?? null,
        max_concurrency: reading.maxConcurrency ?? null,
        queued: await queuedCount(db, userId, selected.namespace),
        namespace: selected.namespace,
      };
    },

    /** The row behind `GET /api/tasks/:id/audio` (owner only). */
    owned: (userId: number, taskId: string) => deps.record.owned(userId, taskId),
  };
}

/** Stores a new task as `queued` (and its event) with the account's selected access token. */
async function insertQueued(
  deps: Pick<DispatchDeps, "db" | "clock" | "record">,
  selected: { userId: number; namespace: string; tokenId: number },
  params: MusicParams,
  title: string | undefined,
) {
  const now = new Date(deps.clock.now());
  return deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(tasks)
      .values({
        userId: selected.userId,
        namespace: selected.namespace,
        tokenId: selected.tokenId,
        status: "queued",
        params: { ...params },
        title: title ?? defaultTitle(params.prompt),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!inserted) throw new Error("task insert returned no row");
    await deps.record.save(tx, [inserted], "api");
    return inserted;
  });
}

/** How many of the account's tasks wait in the local queue. */
async function queuedCount(db: AppDatabase, userId: number, namespace: string): Promise<number> {
  const [queued] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(tasks)
    .where(
      and(eq(tasks.userId, userId), eq(tasks.namespace, namespace), eq(tasks.status, "queued")),
    );
  return queued?.n ?? 0;
}

export type TaskService = ReturnType<typeof createTaskService>;
