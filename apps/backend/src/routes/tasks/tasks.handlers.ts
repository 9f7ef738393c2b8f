import { OpenAPIHono } from "@hono/zod-openapi";
import { TASK_STATES, type TaskState } from "../../schemas/task-states.ts";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireSession } from "../../middleware/session.ts";
import { cancelTask, createTask, getTask, listTasks } from "./tasks.routes.ts";
import { INVALID_REQUEST } from "../../schemas/error-codes.ts";

function parseStatuses(value: string | undefined): TaskState[] | undefined {
  if (!value) return undefined;
  const statuses = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = statuses.filter((s) => !(TASK_STATES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new ApiError(
      400,
      INVALID_REQUEST,
      `Unknown status ${unknown.join(", ")}; use ${TASK_STATES.join(", ")}.`,
    );
  }
  return statuses as TaskState[];
}

export function tasksRouter(deps: AppDeps) {
  const { sessions, tasks } = deps.services;
  const middleware = requireSession(sessions);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...createTask, middleware }, async (c) => {
      const task = await tasks.create(c.get("session").userId, c.req.valid("json"));
      return c.json(task, 201);
    })
    .openapi({ ...listTasks, middleware }, async (c) => {
      const query = c.req.valid("query");
      const page = await tasks.list(c.get("session").userId, {
        statuses: parseStatuses(query.status),
        limit: query.limit,
        sort: query.sort,
        ...(query.q ? { search: query.q } : {}),
        ...(query.favourite ? { favourite: query.favourite === "true" } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      return c.json(page, 200);
    })
    .openapi({ ...getTask, middleware }, async (c) => {
      return c.json(await tasks.get(c.get("session").userId, c.req.valid("param").id), 200);
    })
    .openapi({ ...cancelTask, middleware }, async (c) => {
      const { task, pending } = await tasks.cancel(
        c.get("session").userId,
        c.req.valid("param").id,
      );
      return pending ? c.json(task, 202) : c.json(task, 200);
    });
}
