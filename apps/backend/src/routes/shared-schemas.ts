import { z } from "@hono/zod-openapi";

/** The error body every route uses: `{ error, message }` plus extra fields when useful. */
export const errorBody = z
  .looseObject({
    error: z.string().openapi({ example: "reauthentication_required" }),
    message: z
      .string()
      .openapi({ example: "The platform authorization has ended; sign in again to continue." }),
  })
  .openapi("Error");

/** A user as the API shows it (spec 2.3 field names). */
export const publicUserSchema = z
  .object({
    id: z.number().int().openapi({ example: 1001 }),
    login: z.string().openapi({ example: "demo" }),
    name: z.string().openapi({ example: "Demo Listener" }),
    avatar_url: z.string().openapi({ description: "May be empty" }),
  })
  .openapi("User");

/** Errors any session-protected route can answer. */
export const sessionErrors = {
  401: {
    description:
      "`unauthenticated` (no, unknown, expired or revoked session) or `reauthentication_required`",
    content: { "application/json": { schema: errorBody } },
  },
} as const;
