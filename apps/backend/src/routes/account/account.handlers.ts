import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireSession } from "../../middleware/session.ts";
import { publicUser } from "../../services/auth/users.ts";
import { listSessions, me, revokeSession } from "./account.routes.ts";
import { SESSION_NOT_FOUND, UNAUTHENTICATED } from "../../schemas/error-codes.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function accountRouter(deps: AppDeps) {
  const { sessions, users, grants } = deps.services;
  const middleware = requireSession(sessions);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...me, middleware }, async (c) => {
      const { userId, sessionId } = c.get("session");
      const [user, grant, active] = await Promise.all([
        users.get(userId),
        grants.status(userId),
        sessions.list(userId),
      ]);
      const current = active.find((s) => s.id === sessionId);
      if (!user || !current)
        throw new ApiError(401, UNAUTHENTICATED, "The session ended; sign in again.");
      return c.json(
        {
          user: publicUser(user),
          // A user always has a grant after sign-in; none at all reads as "sign in again".
          grant: {
            status: grant?.status ?? ("revoked" as const),
            scope: grant?.scope ?? "",
            ...(grant?.status === "revoked" && grant.revokedReason
              ? { reason: grant.revokedReason }
              : !grant
                ? { reason: "no_grant" }
                : {}),
          },
          session: { id: current.id, expires_at: current.expiresAt.toISOString() },
        },
        200,
      );
    })
    .openapi({ ...listSessions, middleware }, async (c) => {
      const { userId, sessionId } = c.get("session");
      const active = await sessions.list(userId);
      return c.json(
        {
          sessions: active.map((s) => ({
            id: s.id,
            user_agent: s.userAgent,
            created_at: s.createdAt.toISOString(),
            last_used_at: s.lastUsedAt.toISOString(),
            expires_at: s.expiresAt.toISOString(),
            current: s.id === sessionId,
          })),
        },
        200,
      );
    })
    .openapi({ ...revokeSession, middleware }, async (c) => {
      const { userId } = c.get("session");
      const { id } = c.req.valid("param");
      // A malformed id cannot name a session: same answer as an unknown one (and no uuid cast error).
      if (!UUID.test(id) || !(await sessions.revoke(userId, id))) {
        throw new ApiError(404, SESSION_NOT_FOUND, "You have no active session with this id.");
      }
      return c.body(null, 204);
    });
}
