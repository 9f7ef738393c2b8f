import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.ts";

import { SHARE_EXPIRIES } from "./task-states.ts";

export { SHARE_EXPIRIES, type ShareExpiry } from "./task-states.ts";

/** `POST /api/tasks/{id}/shares`. */
export const shareCreateSchema = z
  .strictObject({
    expires_in: z.enum(SHARE_EXPIRIES).default("7d"),
    include_text: z.boolean().default(false).openapi({
      description: "Show the prompt and lyrics on the public page (off unless ticked)",
    }),
  })
  .openapi("ShareCreate");

export type ShareCreate = z.infer<typeof shareCreateSchema>;

/** A share link as its owner sees it. */
export const shareSchema = z
  .object({
    id: z.string().openapi({ format: "uuid" }),
    task_id: z.string().openapi({ format: "uuid" }),
    url: z.string().nullable().openapi({
      description:
        "The public page (`/s/{token}`): only in the answer that created it; the backend keeps only a hash of the token",
    }),
    include_text: z.boolean(),
    status: z.enum(["active", "expired", "revoked"]),
    expires_at: isoTime.nullable().openapi({ description: "Null: never" }),
    revoked_at: isoTime.nullable(),
    created_at: isoTime,
  })
  .openapi("Share");

export type Share = z.infer<typeof shareSchema>;

export const shareListSchema = z.object({ shares: z.array(shareSchema) }).openapi("ShareList");
export type ShareList = z.infer<typeof shareListSchema>;
