import { validateMusicParams } from "@overture/core/music";
import { readQuota } from "@overture/core/schemas";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { tasks, type TaskRow } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { createCanceller } from "./cancel.ts";
import type { TaskQueue } from "./queue.ts";
import type { TaskRuntime } from "./runtime.ts";
import type { Quota, Task, TaskPage } from "../../schemas/task.ts";
import type { TaskState } from "../../schemas/task-states.ts";
import {
  INVALID_CURSOR,
  INVALID_PARAMETERS,
  NO_TOKEN_SELECTED,
} from "../../schemas/error-codes.ts";

export interface ListQuery {
  statuses?: readonly TaskState[];
  cursor?: string;
  limit: number;
}

/** Opaque keyset cursor over (created_at, id), newest first. */
function encodeCursor(row: TaskRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at ?? "");
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new ApiError(
      400,
      INVALID_CURSOR,
      "The cursor is not one this API returned; start again without it.",
    );
  }
  return { createdAt, id };
}

/** Creating, listing, reading and cancelling the user's tasks (the `/api/tasks` routes). */
export function createTaskService(runtime: TaskRuntime, queue: TaskQueue) {
  const { deps } = runtime;
  const { db, clock } = deps;
  const canceller = createCanceller(runtime);

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
     * Validates the music parameters, checks the quota with the selected token's proxy token,
     * stores the task as `queued` and drains the account's queue: the task is submitted now when
     * quota is free and it is first in line, else it waits (spec 8: client-side queueing).
     */
    async create(userId: number, input: unknown): Promise<Task> {
      const validation = validateMusicParams(input);
      if (!validation.ok) {
        throw new ApiError(
          400,
          INVALID_PARAMETERS,
          `Invalid music parameters: ${validation.errors.map((e) => e.message).join("; ")}`,
          {
            fields: validation.errors,
          },
        );
      }
      const selected = await selection(userId);
      const account = { userId, namespace: selected.namespace };
      const quota = await deps.proxyTokens.withProxyToken(
        userId,
        selected.namespace,
        selected.tokenId,
        (token) => deps.platform.getAvailableQuota(token),
      );
      const now = new Date(clock.now());
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(tasks)
          .values({
            userId,
            namespace: selected.namespace,
            tokenId: selected.tokenId,
            status: "queued",
            params: { ...validation.value },
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!inserted) throw new Error("task insert returned no row");
        await runtime.save(tx, [inserted], "api");
        return inserted;
      });
      await queue.drain(account, readQuota(quota).available ?? Number.POSITIVE_INFINITY);
      return runtime.json(await runtime.owned(userId, row.id));
    },

    async list(userId: number, query: ListQuery): Promise<TaskPage> {
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const rows = await db
        .select()
        .from(tasks)
        .where(
          and(
            eq(tasks.userId, userId),
            query.statuses && query.statuses.length > 0
              ? inArray(tasks.status, [...query.statuses])
              : undefined,
            after
              ? sql`(${tasks.createdAt}, ${tasks.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(desc(tasks.createdAt), desc(tasks.id))
        .limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return {
        tasks: page.map(runtime.json),
        next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      };
    },

    async get(userId: number, taskId: string): Promise<Task> {
      return runtime.json(await runtime.owned(userId, taskId));
    },

    async cancel(userId: number, taskId: string): Promise<{ task: Task; pending: boolean }> {
      const { row, pending } = await canceller.cancel(userId, taskId);
      return { task: runtime.json(row), pending };
    },

    async quota(userId: number): Promise<Quota> {
      const selected = await selection(userId);
      const body = await deps.proxyTokens.withProxyToken(
        userId,
        selected.namespace,
        selected.tokenId,
        (token) => deps.platform.getAvailableQuota(token),
      );
      const reading = readQuota(body);
      const [queued] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(tasks)
        .where(
          and(
            eq(tasks.userId, userId),
            eq(tasks.namespace, selected.namespace),
            eq(tasks.status, "queued"),
          ),
        );
      return {
        available: reading.available ?? null,
        max_concurrency: reading.maxConcurrency ?? null,
        queued: queued?.n ?? 0,
        namespace: selected.namespace,
      };
    },

    /** The row behind `GET /api/tasks/:id/audio` (owner only). */
    owned: (userId: number, taskId: string) => runtime.owned(userId, taskId),
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
