import { createRoute, z } from "@hono/zod-openapi";
import { errorBody, sessionErrors } from "../shared-schemas.ts";

const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });

export const rejectionSchema = z
  .object({
    id: z.number().int(),
    task_id: z.string().nullable(),
    reason: z.string().openapi({
      description:
        "`WEBHOOK_MISSING_HEADER`, `WEBHOOK_MALFORMED_TIMESTAMP`, `WEBHOOK_TIMESTAMP_OUT_OF_RANGE`, `WEBHOOK_SIGNATURE_MISMATCH`, `no_secret`, `malformed_body` or `task_mismatch`",
    }),
    message: z.string(),
    diagnoses: z
      .array(z.object({ code: z.string(), message: z.string() }))
      .nullable()
      .openapi({
        description: "Likely causes of a signature mismatch (spec 7), e.g. `FORMER_SECRET_MATCHES`",
      }),
    http_status: z.number().int(),
    received_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("WebhookRejection");

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
      content: json(
        z.object({ rejections: z.array(rejectionSchema), next_cursor: z.string().nullable() }),
      ),
    },
    400: { description: "`invalid_request`", content: json(errorBody) },
    ...sessionErrors,
  },
});
