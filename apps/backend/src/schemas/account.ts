import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.ts";

/** A user as the API shows it (spec 2.3 field names). */
export const publicUserSchema = z
  .object({
    id: z.number().int().openapi({ example: 1001 }),
    login: z.string().openapi({ example: "demo" }),
    name: z.string().openapi({ example: "Demo Listener" }),
    avatar_url: z.string().openapi({ description: "May be empty" }),
  })
  .openapi("User");

export type PublicUser = z.infer<typeof publicUserSchema>;

/** `POST /auth/token`: the session the extension keeps. */
export const sessionTokenSchema = z
  .object({
    session_token: z
      .string()
      .openapi({ description: "Opaque bearer token for `Authorization: Bearer …`" }),
    token_type: z.literal("Bearer"),
    expires_at: isoTime.openapi({ description: "Sliding: renewed while the session is used" }),
    user: publicUserSchema,
  })
  .openapi("SessionToken");

export type SessionToken = z.infer<typeof sessionTokenSchema>;

/** `GET /api/me`: the caller, their platform grant and this session. */
export const meSchema = z
  .object({
    user: publicUserSchema,
    grant: z.object({
      status: z
        .enum(["active", "revoked"])
        .openapi({ description: "`revoked`: sign in again before using the platform" }),
      scope: z.string().openapi({ example: "user_info api_key" }),
    }),
    session: z.object({ id: z.string(), expires_at: isoTime }),
  })
  .openapi("Me");

export type Me = z.infer<typeof meSchema>;

/** A signed-in device (an active session). */
export const sessionSummarySchema = z
  .object({
    id: z.string(),
    user_agent: z.string().nullable(),
    created_at: isoTime,
    last_used_at: isoTime,
    expires_at: isoTime,
    current: z.boolean().openapi({ description: "The session making this request" }),
  })
  .openapi("SessionSummary");

export type SessionSummary = z.infer<typeof sessionSummarySchema>;
