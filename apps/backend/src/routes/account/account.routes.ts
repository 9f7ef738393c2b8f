import { createRoute, z } from "@hono/zod-openapi";
import { errorBody, publicUserSchema, sessionErrors } from "../shared-schemas.ts";

const tags = ["Account"];
const security = [{ session: [] }];

export const meResponse = z
  .object({
    user: publicUserSchema,
    grant: z.object({
      status: z
        .enum(["active", "revoked"])
        .openapi({ description: "`revoked`: sign in again before using the platform" }),
      scope: z.string().openapi({ example: "user_info api_key" }),
    }),
    session: z.object({
      id: z.string(),
      expires_at: z.string().openapi({ format: "date-time" }),
    }),
  })
  .openapi("Me");

export const me = createRoute({
  method: "get",
  path: "/api/me",
  tags,
  security,
  summary: "Who is signed in, the state of their platform grant and of this session",
  responses: {
    200: { description: "The caller", content: { "application/json": { schema: meResponse } } },
    ...sessionErrors,
  },
});

export const sessionSummary = z
  .object({
    id: z.string(),
    user_agent: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
    last_used_at: z.string().openapi({ format: "date-time" }),
    expires_at: z.string().openapi({ format: "date-time" }),
    current: z.boolean().openapi({ description: "The session making this request" }),
  })
  .openapi("SessionSummary");

export const listSessions = createRoute({
  method: "get",
  path: "/api/sessions",
  tags,
  security,
  summary: "Signed-in devices (active sessions), most recently used first",
  responses: {
    200: {
      description: "Active sessions",
      content: { "application/json": { schema: z.object({ sessions: z.array(sessionSummary) }) } },
    },
    ...sessionErrors,
  },
});

export const revokeSession = createRoute({
  method: "delete",
  path: "/api/sessions/{id}",
  tags,
  security,
  summary: "Sign out one of your devices",
  request: { params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) }) },
  responses: {
    204: { description: "Revoked (takes effect on that device's next request)" },
    404: {
      description: "No such active session of yours",
      content: { "application/json": { schema: errorBody } },
    },
    ...sessionErrors,
  },
});
