import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.ts";

/** An access token of a namespace as the platform lists it (spec 4.4): meta only, never a value. */
export const accessTokenMetaSchema = z
  .object({
    id: z.number().int().openapi({ example: 101 }),
    name: z.string().openapi({ example: "Studio (paid)" }),
    usage_scenario: z
      .string()
      .openapi({ description: "`paid` or `trial` (others kept as sent)", example: "paid" }),
  })
  .openapi("AccessTokenMeta");

export type AccessTokenMeta = z.infer<typeof accessTokenMetaSchema>;

/** The access token chosen for tasks; its name and usage scenario are copied for display. */
export const selectionSchema = z
  .object({
    namespace: z.string(),
    token_id: z.number().int(),
    token_name: z.string(),
    usage_scenario: z.string(),
  })
  .openapi("Selection");

export type Selection = z.infer<typeof selectionSchema>;

/** Whether an account's webhook secret is stored; never the secret itself. */
export const webhookSecretStatusSchema = z
  .object({
    namespace: z.string(),
    configured: z.boolean(),
    updated_at: isoTime.nullable(),
    previous_valid_until: isoTime.nullable().openapi({
      description: "The replaced secret is still accepted until then",
    }),
  })
  .openapi("WebhookSecretStatus");

export type WebhookSecretStatus = z.infer<typeof webhookSecretStatusSchema>;
