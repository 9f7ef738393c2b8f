import { createRoute, z } from "@hono/zod-openapi";
import { meSchema, sessionSummarySchema } from "../../schemas/account.ts";
import { errorBody } from "../../schemas/common.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Account"];
const security = [{ session: [] }];

export const me = createRoute({
  method: "get",
  path: "/api/me",
  tags,
  security,
  summary: "Who is signed in, the state of their platform grant and of this session",
  responses: {
    200: { description: "The caller", content: json(meSchema) },
    ...sessionErrors,
  },
});

export const listSessions = createRoute({
  method: "get",
  path: "/api/sessions",
  tags,
  security,
  summary: "Signed-in devices (active sessions), most recently used first",
  responses: {
    200: {
      description: "Active sessions",
      content: json(z.object({ sessions: z.array(sessionSummarySchema) })),
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
      content: json(errorBody),
    },
    ...sessionErrors,
  },
});
