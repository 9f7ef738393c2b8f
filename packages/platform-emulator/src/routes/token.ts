import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { EmulatorContext } from "../context.ts";
import { authenticateClient } from "../oauth/client-auth.ts";
import type { TokenPair } from "../oauth/grants.ts";
import { parseScope } from "../oauth/scopes.ts";
import type { AppRecord } from "../state/types.ts";

type Outcome = { ok: true; body: TokenPair } | { ok: false; error: string; description: string };

/**
 * POST /api/open/oauth/token (spec 4.2). Errors use RFC 6749 5.2 (`{ error, error_description }`):
 * the spec shows no error format for this endpoint, this is the emulator's documented choice.
 */
export function tokenRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono();
  app.post("/api/open/oauth/token", async (c) => {
    const type = c.req.header("Content-Type") ?? "";
    if (!/^application\/x-www-form-urlencoded\b/i.test(type))
      return oauthError(
        c,
        400,
        "invalid_request",
        "Content-Type must be application/x-www-form-urlencoded",
      );
    const form = new URLSearchParams(await c.req.text());
    const repeated = [...new Set(form.keys())].find((k) => form.getAll(k).length > 1);
    if (repeated) return oauthError(c, 400, "invalid_request", `parameter ${repeated} is repeated`);
    const auth = authenticateClient(
      ctx.state,
      c.req.header("Authorization"),
      form,
      ctx.options.basicAuthEncoding,
    );
    if (!auth.ok) {
      const status = auth.error === "invalid_client" ? 401 : 400;
      const headers = auth.basic
        ? { "WWW-Authenticate": 'Basic realm="platform-emulator"' }
        : undefined;
      return oauthError(c, status, auth.error, auth.description, headers);
    }
    const grantType = form.get("grant_type");
    let outcome: Outcome;
    if (grantType === "authorization_code") outcome = exchangeCode(ctx, auth.client, form);
    else if (grantType === "refresh_token") outcome = refresh(ctx, auth.client, form);
    else if (!grantType) return oauthError(c, 400, "invalid_request", "grant_type is required");
    else
      return oauthError(
        c,
        400,
        "unsupported_grant_type",
        `grant_type ${grantType} is not supported`,
      );
    if (!outcome.ok) return oauthError(c, 400, outcome.error, outcome.description);
    return c.json(outcome.body, 200, { "Cache-Control": "no-store", Pragma: "no-cache" });
  });
  return app;
}

function exchangeCode(ctx: EmulatorContext, client: AppRecord, form: URLSearchParams): Outcome {
  const code = form.get("code");
  const redirectUri = form.get("redirect_uri");
  if (!code || !redirectUri)
    return invalid("invalid_request", "code and redirect_uri are required");
  const record = ctx.state.codes.get(code);
  if (record?.clientId !== client.client_id)
    return invalid("invalid_grant", "unknown authorization code");
  if (record.usedAt !== undefined) {
    // RFC 6749 4.1.2: a second use revokes what the first one obtained.
    if (record.grantId) ctx.grants.revoke(record.grantId, "authorization code reused");
    return invalid("invalid_grant", "authorization code already used; its tokens are revoked");
  }
  if (record.expiresAt <= ctx.clock.now()) {
    ctx.state.codes.delete(code);
    return invalid("invalid_grant", "authorization code expired");
  }
  if (record.redirectUri !== redirectUri)
    return invalid("invalid_grant", "redirect_uri differs from the authorization request");
  record.usedAt = ctx.clock.now();
  const grant = ctx.grants.create({
    userId: record.userId,
    clientId: client.client_id,
    scope: record.scope,
  });
  record.grantId = grant.id;
  return { ok: true, body: ctx.grants.issue(grant) };
}

function refresh(ctx: EmulatorContext, client: AppRecord, form: URLSearchParams): Outcome {
  const token = form.get("refresh_token");
  if (!token) return invalid("invalid_request", "refresh_token is required");
  const record = ctx.state.refreshTokens.get(token);
  const grant = record && ctx.state.grants.get(record.grantId);
  if (!record || !grant || grant.revokedAt !== undefined || grant.clientId !== client.client_id)
    return invalid("invalid_grant", "unknown or revoked refresh token");
  if (record.expiresAt <= ctx.clock.now()) return invalid("invalid_grant", "refresh token expired");
  if (record.rotatedAt !== undefined) {
    ctx.grants.revoke(grant.id, "refresh token reuse detected");
    return invalid("invalid_grant", "refresh token already used; the grant is revoked");
  }
  const asked = parseScope(form.get("scope") ?? undefined);
  if (asked.some((s) => !grant.scope.includes(s)))
    return invalid("invalid_scope", "scope exceeds the original grant");
  const mode = ctx.options.refreshTokenRotation;
  if (mode === "off") return { ok: true, body: ctx.grants.issue(grant, token) };
  if (mode === "rotate") ctx.state.refreshTokens.delete(token);
  else record.rotatedAt = ctx.clock.now();
  return { ok: true, body: ctx.grants.issue(grant) };
}

function invalid(error: string, description: string): Outcome {
  return { ok: false, error, description };
}

function oauthError(
  c: Context,
  status: ContentfulStatusCode,
  error: string,
  description: string,
  headers?: Record<string, string>,
): Response {
  return c.json({ error, error_description: description }, status, {
    "Cache-Control": "no-store",
    ...headers,
  });
}
