import { createRoute, z } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";
import { rejectionPageSchema } from "../../schemas/rejections.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

export const listRejections = createRoute({
  method: "get",
  path: "/api/webhook-rejections",
  tags: ["Webhooks"],
  security: [{ session: [] }],
  summary:
    "Recent webhook deliveries for the user's tasks that were refused, and why (spec 6 rule 5)",
  request: {
    query: z.object({
      cursor: z
        .string()
        .regex(/^\d+$/)
        .optional()
        .openapi({ description: "`next_cursor` of the previous page" }),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
  },
  responses: {
    200: {
      description: "Newest first",
      content: json(rejectionPageSchema),
    },
    400: { description: "`invalid_request`", content: json(errorBody) },
    ...sessionErrors,
  },
});
