import { createHash, timingSafeEqual } from "node:crypto";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { UNAUTHENTICATED } from "../schemas/error-codes.ts";

// Digests have one length whatever was sent, so timingSafeEqual never throws and the comparison
// reveals neither the token's length nor how much of it a guess got right.
const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Requires `Authorization: Bearer <METRICS_TOKEN>` when a token is configured; without one the
 * route stays public (start-up warns in production). Refusals are 401 with `WWW-Authenticate`.
 */
export function requireMetricsToken(token: string | undefined) {
  const expected = token === undefined ? undefined : digest(token);
  return createMiddleware<AppEnv>(async function requireMetricsTokenMiddleware(c, next) {
    if (expected) {
      const sent = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
      if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
        return c.json(
          {
            error: UNAUTHENTICATED,
            message: "Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.",
          },
          401,
          { "WWW-Authenticate": "Bearer" },
        );
      }
    }
    await next();
  });
}
