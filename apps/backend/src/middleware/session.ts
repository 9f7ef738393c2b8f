import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { ApiError } from "../lib/errors.ts";
import type { SessionService } from "../services/auth/sessions.ts";
import { UNAUTHENTICATED } from "../schemas/error-codes.ts";

/**
 * Requires `Authorization: Bearer <session token>` and sets `c.var.session`. The extension's
 * background script sends it; `EventSource` cannot, so `/api/events` is read with `fetch`.
 */
export function requireSession(sessions: SessionService) {
  return createMiddleware<AppEnv>(async function requireSessionMiddleware(c, next) {
    const header = c.req.header("authorization") ?? "";
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!token)
      throw new ApiError(401, UNAUTHENTICATED, "Sign in first: no session token was sent.");
    const session = await sessions.authenticate(token);
    if (!session) {
      throw new ApiError(
        401,
        UNAUTHENTICATED,
        "The session is unknown, expired or was signed out; sign in again.",
      );
    }
    c.set("session", session);
    await next();
  });
}
