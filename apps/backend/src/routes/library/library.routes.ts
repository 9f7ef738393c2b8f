import { createRoute, z } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";
import {
  taskDeletionSchema,
  taskDetailsSchema,
  taskEstimateSchema,
  taskPatchSchema,
} from "../../schemas/library.ts";
import { fieldErrorSchema, taskSchema } from "../../schemas/task.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Library"];
const security = [{ session: [] }];

const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid" }),
});
const notFound = { description: "`task_not_found` (also deleted ones)", content: json(errorBody) };

export const patchTask = createRoute({
  method: "patch",
  path: "/api/tasks/{id}",
  tags,
  security,
  summary: "Rename a track and/or mark it a favourite",
  request: { params: idParams, body: { required: true, content: json(taskPatchSchema) } },
  responses: {
    200: { description: "The task as changed", content: json(taskSchema) },
    400: {
      description: "`invalid_request`, `fields` naming `title` or `favourite`",
      content: json(errorBody),
    },
    404: notFound,
    ...sessionErrors,
  },
});

export const deleteTask = createRoute({
  method: "delete",
  path: "/api/tasks/{id}",
  tags,
  security,
  summary:
    "Remove a finished track from the library; it and its archived audio are purged once the undo window has passed",
  request: { params: idParams },
  responses: {
    200: {
      description: "Deleted, restorable until `undo_until`",
      content: json(taskDeletionSchema),
    },
    404: notFound,
    409: {
      description: "`task_active`: queued or running, cancel it first",
      content: json(errorBody),
    },
    ...sessionErrors,
  },
});

export const restoreTask = createRoute({
  method: "post",
  path: "/api/tasks/{id}/restore",
  tags,
  security,
  summary: "Undo a deletion within its window",
  request: { params: idParams },
  responses: {
    200: { description: "Back in the library", content: json(taskSchema) },
    404: {
      description: "`task_not_found` (purged already, or never yours)",
      content: json(errorBody),
    },
    410: { description: "`undo_expired`, or the task is not deleted", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const getTaskDetails = createRoute({
  method: "get",
  path: "/api/tasks/{id}/details",
  tags,
  security,
  summary: "Everything about a track: parameters, lyrics, durations, timings, cost",
  request: { params: idParams },
  responses: {
    200: { description: "The details", content: json(taskDetailsSchema) },
    404: notFound,
    ...sessionErrors,
  },
});

export const getTaskEstimate = createRoute({
  method: "get",
  path: "/api/tasks/{id}/estimate",
  tags,
  security,
  summary: "How long the task should take, from the user's own past tasks of similar settings",
  request: { params: idParams },
  responses: {
    200: { description: "The estimate and its range", content: json(taskEstimateSchema) },
    404: notFound,
    ...sessionErrors,
  },
});

export const regenerateTask = createRoute({
  method: "post",
  path: "/api/tasks/{id}/regenerate",
  tags,
  security,
  summary:
    "Submit a track's parameters again as a new task (new seeds when it had seeds); like `POST /api/tasks`",
  request: { params: idParams },
  responses: {
    201: { description: "The new task", content: json(taskSchema) },
    400: {
      description: "`invalid_parameters` or `no_token_selected`",
      content: json(errorBody.extend({ fields: z.array(fieldErrorSchema).optional() })),
    },
    404: notFound,
    ...sessionErrors,
    503: { description: "`platform_unavailable`", content: json(errorBody) },
  },
});
