import { Hono, type Context } from "hono";
import type { EmulatorContext } from "../context.ts";
import type { GrantRecord, UserRecord } from "../state/types.ts";
import { checked } from "../util/checked.ts";
import { bearerToken, jsonError, UNAUTHORIZED_HEADERS } from "../util/http.ts";

interface Auth {
  grant: GrantRecord;
  user: UserRecord;
}

/**
 * Open endpoints (spec 4.3–4.5) behind the OAuth access token. Emulator choices where the spec is
 * silent: a missing scope is 403 `insufficient_scope`; a namespace that does not exist is 404,
 * one the user is not a member of is 403; an unknown token id is 404.
 */
export function openRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();

  const authorize = (c: Context, scope: string): Auth | Response => {
    const token = bearerToken(c.req.header("Authorization"));
    const auth = token ? ctx.grants.authenticate(token) : undefined;
    if (!auth)
      return jsonError(
        401,
        "invalid_token",
        "missing, invalid, expired or revoked access token",
        UNAUTHORIZED_HEADERS,
      );
    if (!auth.grant.scope.includes(scope))
      return jsonError(403, "insufficient_scope", `this endpoint needs the ${scope} scope`);
    return auth;
  };

  const memberNamespace = (c: Context, auth: Auth): Response | undefined => {
    const namespace = c.req.param("namespace") ?? "";
    const account = ctx.state.accounts.get(namespace);
    if (!account) return jsonError(404, "namespace_not_found", `no namespace ${namespace}`);
    if (!account.memberIds.has(auth.user.id))
      return jsonError(403, "forbidden", `you are not a member of ${namespace}`);
    return undefined;
  };

  app.get("/api/open/v1/userinfo", (c) => {
    const auth = authorize(c, "user_info");
    if (auth instanceof Response) return auth;
    const { id, login, name, avatar_url } = auth.user;
    return c.json(checked("userInfo", { id, login, name, avatar_url }));
  });

  app.get("/api/open/v1/:namespace/tokens", (c) => {
    const auth = authorize(c, "api_key");
    if (auth instanceof Response) return auth;
    const refused = memberNamespace(c, auth);
    if (refused) return refused;
    const list = [...ctx.state.consoleTokens.values()]
      .filter((t) => t.namespace === c.req.param("namespace"))
      .map(({ id, name, usage_scenario }) => ({ id, name, usage_scenario }));
    return c.json(checked("accessTokenList", list));
  });

  app.get("/api/open/v1/:namespace/tokens/:id", async (c) => {
    const auth = authorize(c, "api_key");
    if (auth instanceof Response) return auth;
    const refused = memberNamespace(c, auth);
    if (refused) return refused;
    // The id as 4.4 lists it, in decimal: `0x65`, `101.0` or ` 101` are not other spellings of 101.
    const text = c.req.param("id");
    const token = /^[1-9][0-9]{0,15}$/.test(text)
      ? ctx.state.consoleTokens.get(Number(text))
      : undefined;
    if (token?.namespace !== c.req.param("namespace"))
      return jsonError(
        404,
        "token_not_found",
        `no access token ${c.req.param("id")} in this namespace`,
      );
    const { jwt, expiresIn } = await ctx.proxy.mint(auth.grant, token);
    return c.json(
      checked("accessTokenDetail", {
        id: token.id,
        name: token.name,
        usage_scenario: token.usage_scenario,
        proxy_access_token: jwt,
        expires_in: expiresIn,
      }),
      200,
      { "Cache-Control": "no-store" },
    );
  });

  return app;
}
