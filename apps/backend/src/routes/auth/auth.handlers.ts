import { OpenAPIHono } from "@hono/zod-openapi";
import { isPlatformError } from "@overture/core/errors";
import type { Context } from "hono";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { BACKEND_MISCONFIGURED_MESSAGE, CLIENT_REJECTED_LOG } from "../../lib/errors.ts";
import { messagePage, wantsHtml } from "../../lib/html-page.ts";
import { isAllowedRedirect } from "../../lib/redirect-allowlist.ts";
import { rateLimit } from "../../middleware/rate-limit.ts";
import { requireSession } from "../../middleware/session.ts";
import { InsufficientScopeError } from "../../services/auth/sign-in.ts";
import { deviceCallback } from "../device/device-callback.ts";
import { publicUser } from "../../services/auth/users.ts";
import { callback, check, logout, start, token } from "./auth.routes.ts";
import {
  type ApiErrorCode,
  BACKEND_MISCONFIGURED,
  INVALID_GRANT,
  INVALID_REQUEST,
  INVALID_STATE,
  REDIRECT_URI_NOT_ALLOWED,
} from "../../schemas/error-codes.ts";

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
// A platform `error` value is passed on only when it looks like an RFC 6749 code.
const OAUTH_ERROR_CODE = /^[a-z_]{1,64}$/;

/** A sign-in that cannot continue and has nowhere trusted to go: a page (or JSON), status 400. */
function refuse(
  c: Context<AppEnv>,
  title: string,
  message: string,
  code: ApiErrorCode = INVALID_REQUEST,
) {
  if (wantsHtml(c)) return c.html(messagePage(title, message), 400);
  return c.json({ error: code, message }, 400);
}

/** `redirectUri` with the sign-in result as query parameters (it has no query of its own). */
function resultUrl(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

export function authRouter(deps: AppDeps) {
  const { config, logger } = deps;
  const { signIn, sessions, deviceFlow } = deps.services;
  // 20 per minute with bursts of 10, per client address, per endpoint, across all instances.
  const limited = (name: string) =>
    rateLimit({
      name,
      burst: 10,
      perMinute: 20,
      store: deps.services.rateLimits,
      trustedProxies: config.trustedProxies,
    });
  const [checkLimit, startLimit, callbackLimit, tokenLimit] = [
    limited("auth-check"),
    limited("auth-start"),
    limited("oauth-callback"),
    limited("auth-token"),
  ];
  const session = requireSession(sessions);

  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  router.openAPIRegistry.registerComponent("securitySchemes", "session", {
    type: "http",
    scheme: "bearer",
    description: "The session token from `POST /auth/token`",
  });
  return router
    .openapi({ ...check, middleware: checkLimit }, (c) => {
      const { redirect_uri: redirectUri } = c.req.valid("query");
      return c.json(
        {
          redirect_allowed: isAllowedRedirect(redirectUri, config.extension.redirectUrls),
          callback_url: signIn.callbackUrl,
        },
        200,
      );
    })
    .openapi({ ...start, middleware: startLimit }, async (c) => {
      const {
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: method,
      } = c.req.valid("query");
      if (!redirectUri || !isAllowedRedirect(redirectUri, config.extension.redirectUrls)) {
        return refuse(
          c,
          "Sign-in refused",
          "This sign-in was started with a redirect address the Overture backend does not know. Only the Overture extension can sign in here.",
          REDIRECT_URI_NOT_ALLOWED,
        );
      }
      if (method !== "S256" || !challenge || !PKCE_CHALLENGE.test(challenge)) {
        return refuse(
          c,
          "Sign-in refused",
          "The sign-in request needs a PKCE code_challenge (43 base64url characters) with code_challenge_method=S256.",
        );
      }
      const authorize = await signIn.start({ redirectUri, codeChallenge: challenge });
      return c.redirect(authorize, 302);
    })
    .openapi({ ...callback, middleware: callbackLimit }, async (c) => {
      const query = c.req.valid("query");
      const attempt = query.state ? await signIn.consumeAttempt(query.state) : null;
      // A sign-in started on `/device` (the command line) comes back through the same callback.
      const device =
        !attempt && query.state && config.relay.enabled
          ? await deviceFlow.consumeState(query.state)
          : null;
      if (device) return deviceCallback(c, deps, device, query);
      if (!attempt) {
        return refuse(
          c,
          "Sign-in expired",
          "This sign-in is unknown, was already completed, or took longer than 10 minutes.",
          INVALID_STATE,
        );
      }
      const back = (params: Record<string, string>) =>
        c.redirect(resultUrl(attempt.redirectUri, params), 302);
      if (query.error !== undefined) {
        const denied = query.error === "access_denied";
        return back({
          error: OAUTH_ERROR_CODE.test(query.error) ? query.error : "server_error",
          error_description: denied
            ? "You declined the authorization on the platform."
            : "The platform did not authorize the sign-in.",
        });
      }
      if (!query.code) {
        return back({
          error: "server_error",
          error_description: "The platform returned neither a code nor an error.",
        });
      }
      try {
        const { handoffCode } = await signIn.complete(attempt, query.code);
        return back({ code: handoffCode });
      } catch (error) {
        return back(signInFailure(error, logger, c.get("requestId")));
      }
    })
    .openapi({ ...token, middleware: tokenLimit }, async (c) => {
      const body = c.req.valid("json");
      const signedIn = await signIn.redeem({
        code: body.code,
        codeVerifier: body.code_verifier,
        userAgent: c.req.header("user-agent") ?? null,
      });
      c.header("Cache-Control", "no-store");
      return c.json(
        {
          session_token: signedIn.sessionToken,
          token_type: "Bearer" as const,
          expires_at: signedIn.expiresAt.toISOString(),
          user: publicUser(signedIn.user),
        },
        200,
      );
    })
    .openapi({ ...logout, middleware: session }, async (c) => {
      const { sessionId, userId } = c.get("session");
      await sessions.revoke(userId, sessionId);
      return c.body(null, 204);
    });
}

/**
 * What the extension's redirect carries when the code exchange fails: an OAuth error code and a
 * sentence a person can act on. The platform's own answer goes to the log only, by its code.
 */
function signInFailure(
  error: unknown,
  logger: AppDeps["logger"],
  requestId: string,
): Record<string, string> {
  const code = isPlatformError(error) ? error.code : undefined;
  logger.warn(
    { requestId, platformError: code ?? describeError(error) },
    "sign-in could not be completed",
  );
  if (error instanceof InsufficientScopeError) {
    return {
      error: "insufficient_scope",
      error_description:
        "Overture needs the api_key permission to use your access tokens; sign in again and allow it.",
    };
  }
  if (code === "OAUTH_INVALID_CLIENT") {
    logger.error({ requestId, platformError: code }, CLIENT_REJECTED_LOG);
    return { error: BACKEND_MISCONFIGURED, error_description: BACKEND_MISCONFIGURED_MESSAGE };
  }
  if (code === "OAUTH_INVALID_GRANT") {
    return {
      error: INVALID_GRANT,
      error_description:
        "The platform refused the authorization code (expired or already used); sign in again.",
    };
  }
  return {
    error: "server_error",
    error_description: "The sign-in could not be completed; try again.",
  };
}

// Only the error's class name is logged: its message or cause may quote the platform's answer.
function describeError(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
