import { createRoute, z } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";
import { json } from "../shared-schemas.ts";

export const receiveWebhook = createRoute({
  method: "post",
  path: "/webhooks/platform",
  tags: ["Webhooks"],
  summary: "The platform's signed task callbacks (spec 4.8, 4.9); called by the platform only",
  description:
    "The raw body is verified before it is parsed, so it is not declared as a validated JSON body here. " +
    "2xx only after the event is committed; 503 while the database is unavailable (the platform retries).",
  request: {
    query: z.object({
      k: z.string().optional().openapi({ description: "The task's callback key" }),
    }),
  },
  responses: {
    200: {
      description: "Stored (`accepted`), or already stored (`duplicate`)",
      content: json(z.object({ status: z.enum(["accepted", "duplicate"]) })),
    },
    400: { description: "`malformed_body` or `task_mismatch`", content: json(errorBody) },
    401: {
      description:
        "`webhook_missing_header`, `webhook_malformed_timestamp`, `webhook_timestamp_out_of_range`, `webhook_signature_mismatch` or `no_secret`",
      content: json(errorBody),
    },
    404: { description: "`unknown_task`: no task has this key", content: json(errorBody) },
    413: { description: "`payload_too_large`", content: json(errorBody) },
    503: { description: "`database_unavailable`", content: json(errorBody) },
  },
});
