import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import { NOT_FOUND } from "../schemas/error-codes.ts";

/**
 * The developer relay and its command-line sign-in exist only when the operator turned them on
 * (`RELAY_ENABLED`): otherwise each of their routes answers exactly as a path with no route does.
 */
export function relayEnabled(enabled: boolean) {
  return createMiddleware<AppEnv>(async function relayEnabledMiddleware(c, next) {
    if (!enabled)
      return c.json(
        { error: NOT_FOUND, message: `No route for ${c.req.method} ${c.req.path}` },
        404,
      );
    await next();
  });
}
