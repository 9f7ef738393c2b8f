import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { EmulatorContext } from "../context.ts";
import { createConsentRequest, signedInUser, takeConsentRequest } from "../oauth/consent-store.ts";
import { withParams } from "../oauth/redirect.ts";
import { parseScope, unknownScopes } from "../oauth/scopes.ts";
import { consentPage } from "../pages/consent-page.ts";
import { pageHeaders } from "../pages/layout.ts";
import type { AppRecord, UserRecord } from "../state/types.ts";
import { randomId } from "../util/random.ts";
import { expired, redirectMismatch, showError } from "./authorize-refusals.ts";

const BROWSER_COOKIE = "emu_browser";
const USER_COOKIE = "emu_user";

/** GET /oauth/authorize and the consent page's two form targets (spec 4.1, 7). */
export function authorizeRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();

  app.get("/oauth/authorize", (c) => {
    const q = (name: string) => c.req.query(name);
    const client = ctx.state.apps.get(q("client_id") ?? "");
    if (!client)
      return showError(
        c,
        "Unknown application",
        "No application has this client_id.",
        q("client_id"),
      );
    const redirectUri = q("redirect_uri");
    // Spec 2.1/7: a redirect_uri that differs from the registered one is rejected, never followed.
    if (redirectUri !== client.redirect_uri) return redirectMismatch(c, client, redirectUri);
    const state = q("state");
    const back = (error: string, description: string) =>
      c.redirect(withParams(redirectUri, { error, error_description: description, state }), 302);
    // RFC 6749 4.1.2.1: a missing parameter is invalid_request; a value other than code is
    // unsupported_response_type (the spec shows only the fixed value).
    const responseType = q("response_type");
    if (!responseType) return back("invalid_request", "response_type is required (code)");
    if (responseType !== "code")
      return back("unsupported_response_type", "response_type must be code");
    const scope = parseScope(q("scope"));
    if (scope.length === 0) return back("invalid_scope", "scope is required");
    const unknown = unknownScopes(scope);
    if (unknown.length > 0) return back("invalid_scope", `unknown scope: ${unknown.join(" ")}`);

    const user = signedInUser(ctx.state, getCookie(c, USER_COOKIE));
    if (ctx.options.autoApprove)
      return c.redirect(approve(ctx, client, user, scope, redirectUri, state), 302);
    const browserKey = getCookie(c, BROWSER_COOKIE) ?? randomId("b_", 16);
    setCookie(c, BROWSER_COOKIE, browserKey, cookieOptions(ctx));
    const request = createConsentRequest(ctx, {
      browserKey,
      clientId: client.client_id,
      redirectUri,
      scope,
      state,
      userId: user.id,
    });
    const otherUsers = [...ctx.state.users.values()].filter((u) => u.id !== user.id);
    return c.body(
      consentPage({ requestId: request.id, app: client, user, otherUsers, scope, redirectUri }),
      200,
      pageHeaders(["https:", "http:"]),
    );
  });

  app.post("/oauth/authorize/switch", async (c) => {
    const form = await c.req.parseBody();
    const request = take(c, form.request_id);
    const user = typeof form.login === "string" ? ctx.state.userByLogin(form.login) : undefined;
    if (!request || !user) return expired(c);
    setCookie(c, USER_COOKIE, user.login, cookieOptions(ctx));
    const again = new URLSearchParams({
      response_type: "code",
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      scope: request.scope.join(" "),
    });
    if (request.state !== undefined) again.set("state", request.state);
    return c.redirect(`/oauth/authorize?${again.toString()}`, 303);
  });

  app.post("/oauth/authorize/decision", async (c) => {
    const form = await c.req.parseBody();
    const request = take(c, form.request_id);
    if (!request) return expired(c);
    // Re-validate against the console as it is now: never trust what the page carried.
    const client = ctx.state.apps.get(request.clientId);
    const user = ctx.state.users.get(request.userId);
    if (client?.redirect_uri !== request.redirectUri || !user)
      return showError(c, "Application changed", "The application or user no longer matches.");
    const { redirectUri, state, scope } = request;
    if (form.decision === "approve")
      return c.redirect(approve(ctx, client, user, scope, redirectUri, state), 303);
    if (form.decision === "deny")
      return c.redirect(withParams(redirectUri, { error: "access_denied", state }), 303);
    return showError(c, "Unknown decision", "Use the Approve or Deny button.");
  });

  function take(c: Context, id: unknown) {
    if (typeof id !== "string" || !sameOrigin(c, ctx.options.baseUrl)) return undefined;
    return takeConsentRequest(ctx, id, getCookie(c, BROWSER_COOKIE));
  }

  return app;
}

function approve(
  ctx: EmulatorContext,
  client: AppRecord,
  user: UserRecord,
  scope: string[],
  redirectUri: string,
  state: string | undefined,
): string {
  const code = randomId("code_");
  ctx.state.codes.set(code, {
    code,
    clientId: client.client_id,
    redirectUri,
    userId: user.id,
    scope,
    expiresAt: ctx.clock.now() + ctx.options.codeTtlSeconds * 1000,
  });
  return withParams(redirectUri, { code, state });
}

/**
 * Browsers send Origin on form POSTs (our pages use Referrer-Policy same-origin, so it is the real
 * origin, not "null"); a foreign or opaque one is a cross-site submission. Non-browser clients
 * that send none still need the request id and the browser cookie.
 */
function sameOrigin(c: Context, baseUrl: string): boolean {
  const origin = c.req.header("Origin");
  if (origin === undefined) return true;
  return origin === new URL(c.req.url).origin || origin === new URL(baseUrl).origin;
}

function cookieOptions(ctx: EmulatorContext) {
  return {
    path: "/oauth",
    httpOnly: true,
    sameSite: "Lax",
    secure: ctx.options.baseUrl.startsWith("https:"),
  } as const;
}
