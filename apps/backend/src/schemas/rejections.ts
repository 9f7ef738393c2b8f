import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.ts";

/** A refused webhook delivery for one of the user's tasks, and why (spec 6 rule 5). */
export const rejectionSchema = z
  .object({
    id: z.number().int(),
    task_id: z.string().nullable(),
    namespace: z.string().nullable().openapi({
      description:
        "The platform account (namespace) of the task the delivery was for; null when it named no task of the user's",
    }),
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
    received_at: isoTime,
  })
  .openapi("WebhookRejection");

export type WebhookRejection = z.infer<typeof rejectionSchema>;

/** One page of `GET /api/webhook-rejections`, newest first. */
export const rejectionPageSchema = z.object({
  rejections: z.array(rejectionSchema),
  next_cursor: z.string().nullable(),
});

export type RejectionPage = z.infer<typeof rejectionPageSchema>;
