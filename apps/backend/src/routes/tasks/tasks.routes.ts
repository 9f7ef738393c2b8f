import { createRoute, z } from "@hono/zod-openapi";
import { musicParamsSchema } from "@overture/core/schemas";
import { errorBody } from "../../schemas/common.ts";
import { fieldErrorSchema, taskPageSchema, taskSchema } from "../../schemas/task.ts";
import { json, sessionErrors } from "../shared-schemas.ts";
import { LIBRARY_SORTS } from "../../schemas/task-states.ts";

const tags = ["Tasks"];
const security = [{ session: [] }];

const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid" }),
});

export const createTask = createRoute({
  method: "post",
  path: "/api/tasks",
  tags,
  security,
  summary: "Submit a music task now, or queue it until the account has free quota",
  request: {
    body: {
      required: true,
      // Core's schema: every field with its type, range and default; a refusal answers
      // `invalid_parameters` with core's field errors (middleware/app-env.ts).
      content: json(
        musicParamsSchema.meta({
          description:
            "Music parameters (spec 4.6); missing fields take defaults, numeric strings are accepted",
          example: { prompt: "lofi hip hop, mellow piano", duration: 60 },
        }),
      ),
    },
  },
  responses: {
    201: {
      description:
        "Created: `status` says `waiting` (submitted), `queued`, `rejected` or `unknown`",
      content: json(taskSchema),
    },
    400: {
      description: "`invalid_parameters` (with `fields`), `no_token_selected` or `invalid_request`",
      content: json(errorBody.extend({ fields: z.array(fieldErrorSchema).optional() })),
    },
    ...sessionErrors,
    503: { description: "`platform_unavailable`", content: json(errorBody) },
  },
});

export const listTasks = createRoute({
  method: "get",
  path: "/api/tasks",
  tags,
  security,
  summary: "The user's library: tasks searched, filtered and sorted, in keyset pages",
  request: {
    query: z.object({
      status: z.string().optional().openapi({
        description: "Comma-separated statuses to keep, e.g. `queued,waiting,in_progress`",
      }),
      q: z.string().max(200).optional().openapi({
        description: "Text to find in the title, prompt or lyrics (case-insensitive)",
      }),
      favourite: z.enum(["true", "false"]).optional().openapi({
        description: "`true`: favourites only; `false`: the others",
      }),
      sort: z.enum(LIBRARY_SORTS).default("newest"),
      cursor: z.string().optional().openapi({
        description: "`next_cursor` of the previous page (with the same `sort`)",
      }),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: {
      description: "A page; `next_cursor` is null on the last one",
      content: json(taskPageSchema),
    },
    400: { description: "`invalid_request` or `invalid_cursor`", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const getTask = createRoute({
  method: "get",
  path: "/api/tasks/{id}",
  tags,
  security,
  summary: "One of the user's tasks",
  request: { params: idParams },
  responses: {
    200: { description: "The task", content: json(taskSchema) },
    404: {
      description: "`task_not_found` (also for other users' tasks)",
      content: json(errorBody),
    },
    ...sessionErrors,
  },
});

export const cancelTask = createRoute({
  method: "post",
  path: "/api/tasks/{id}/cancel",
  tags,
  security,
  summary: "Cancel a queued, waiting or running task (spec 3.1)",
  request: { params: idParams },
  responses: {
    200: {
      description: "Cancelled (or the platform's status after the cancel)",
      content: json(taskSchema),
    },
    202: {
      description: "Being submitted: it is cancelled as soon as the platform names it",
      content: json(taskSchema),
    },
    404: { description: "`task_not_found`", content: json(errorBody) },
    409: {
      description: "`not_cancellable`: already final, or `unknown`",
      content: json(errorBody),
    },
    ...sessionErrors,
    503: { description: "`platform_unavailable`", content: json(errorBody) },
  },
});
