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

/** `GET /auth/check`: whether a sign-in from this redirect URL can work, before a window opens. */
export const signInCheckSchema = z
  .object({
    redirect_allowed: z.boolean().openapi({
      description: "Whether `redirect_uri` is on this backend's `EXTENSION_REDIRECT_URLS`",
    }),
    callback_url: z.string().openapi({
      description:
        "The callback this backend sends to the platform (`{PUBLIC_URL}/oauth/callback`): the application registered on the platform must use exactly this address",
      example: "https://overture.example.com/oauth/callback",
    }),
  })
  .openapi("SignInCheck");

export type SignInCheck = z.infer<typeof signInCheckSchema>;

/** `GET /api/me`: the caller, their platform grant and this session. */
export const meSchema = z
  .object({
    user: publicUserSchema,
    grant: z.object({
      status: z
        .enum(["active", "revoked"])
        .openapi({ description: "`revoked`: sign in again before using the platform" }),
      scope: z.string().openapi({ example: "user_info api_key" }),
      reason: z.string().optional().openapi({
        description:
          "Why a grant is `revoked`, when known: `refresh_refused` (the platform ended it), `grant_unreadable` (no encryption key the backend lists opens it), …",
        example: "grant_unreadable",
      }),
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
