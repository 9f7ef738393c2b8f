import type { MiddlewareHandler } from "hono";
import type { EmulatorContext } from "../context.ts";
import type { ConsoleTokenRecord } from "../state/types.ts";
import { bearerToken, jsonError, UNAUTHORIZED_HEADERS } from "../util/http.ts";

/** The task routes' context: the console token the request's API token stands for. */
export interface TaskEnv {
  Variables: { token: ConsoleTokenRecord };
}

/** Refuses a request without a valid API token (401); otherwise sets `c.var.token`. */
export function requireApiToken(ctx: EmulatorContext): MiddlewareHandler<TaskEnv> {
  return async function requireApiToken(c, next) {
    const token = await authenticateApiToken(ctx, bearerToken(c.req.header("Authorization")));
    if (!token)
      return jsonError(
        401,
        "invalid_token",
        "wrong, invalid or expired API token",
        UNAUTHORIZED_HEADERS,
      );
    c.set("token", token);
    return next();
  };
}

/**
 * Task endpoints take `Bearer <API_TOKEN>` (spec 5 rule 5): a console access token's raw value,
 * or a live proxy token minted from one (spec 5 rule 4). Both resolve to the console token, whose
 * namespace is the account the task belongs to.
 */
export async function authenticateApiToken(
  ctx: EmulatorContext,
  token: string | undefined,
): Promise<ConsoleTokenRecord | undefined> {
  if (!token) return undefined;
  const raw = ctx.state.consoleTokenByValue(token);
  if (raw) return raw;
  return token.split(".").length === 3 ? ctx.proxy.verify(token) : undefined;
}
