import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { type AppEnv, validationHook } from "../../app-env.ts";
import { ApiError } from "../../lib/errors.ts";
import { wantsHtml } from "../../lib/html-page.ts";
import { apiBodyLimit } from "../../middleware/body-limit.ts";
import { rateLimit } from "../../middleware/rate-limit.ts";
import { relayEnabled } from "../../middleware/relay-enabled.ts";
import type { PollResult } from "../../services/auth/device-flow.ts";
import { publicUser } from "../../services/auth/users.ts";
import type { AppDeps } from "../../services/index.ts";
import { DEVICE_CODE_GRANT } from "../../schemas/device.ts";
import {
  type ApiErrorCode,
  INVALID_USER_CODE,
  UNSUPPORTED_GRANT_TYPE,
} from "../../schemas/error-codes.ts";
import { codeEntryPage, resultPage, sendPage } from "./device-page.ts";
import {
  deviceAuthorization,
  deviceToken,
  verificationConfirm,
  verificationPage,
  verificationSubmit,
} from "./device.routes.ts";

/**
 * Code entries allowed for everyone together, on top of each address's own limit: a guesser
 * with many addresses still gets at most a few hundred tries while a code lives (10 minutes) out
 * of 2.6·10^10 codes. A flood can make people wait a minute to enter a code; it never lets one in.
 */
const ALL_CODE_ENTRIES = { burst: 100, perMinute: 60 };

/**
 * The command-line sign-in (RFC 8628), for `overture-webhooks listen`: `/auth/device` and its
 * token endpoint for the device, `/device` for the person. Off with the relay (`RELAY_ENABLED`).
 */
export function deviceRouter(deps: AppDeps) {
  const { config } = deps;
  const { deviceFlow, rateLimits } = deps.services;
  const platformOrigin = new URL(config.platform.baseUrl).origin;
  const verificationUri = `${config.publicUrl}/device`;
  const limited = (name: string, burst = 10, perMinute = 20, what?: string) =>
    rateLimit({
      name,
      burst,
      perMinute,
      store: rateLimits,
      trustForwardedFor: config.trustProxy,
      ...(what ? { what } : {}),
    });
  const on = relayEnabled(config.relay.enabled);
  const bodyLimit = apiBodyLimit();
  const allCodeEntries = createMiddleware<AppEnv>(async function codeEntriesMiddleware(c, next) {
    const { allowed } = await rateLimits.take("device-code-entries:all", {
      burst: ALL_CODE_ENTRIES.burst,
      perMs: ALL_CODE_ENTRIES.perMinute / 60_000,
    });
    if (!allowed) {
      c.header("Retry-After", "60");
      return page(
        c,
        resultPage("Slow down", "Too many codes were entered just now; try again in a minute."),
        429,
      );
    }
    await next();
  });
  const page = (
    c: Context<AppEnv>,
    body: Parameters<typeof sendPage>[1],
    status: 200 | 400 | 403 | 429,
  ) => sendPage(c, body, status, platformOrigin);
  const tokenError = (code: ApiErrorCode, message: string) => new ApiError(400, code, message);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(
      { ...deviceAuthorization, middleware: [on, bodyLimit, limited("auth-device")] },
      async (c) => {
        await deviceFlow.pruneExpired();
        const started = await deviceFlow.start(c.req.header("user-agent") ?? null);
        c.header("Cache-Control", "no-store");
        return c.json(
          {
            device_code: started.deviceCode,
            user_code: started.userCode,
            verification_uri: verificationUri,
            verification_uri_complete: `${verificationUri}?user_code=${started.userCode}`,
            expires_in: started.expiresIn,
            interval: started.interval,
          },
          200,
        );
      },
    )
    .openapi(
      { ...deviceToken, middleware: [on, bodyLimit, limited("auth-device-token", 30, 120)] },
      async (c) => {
        const body = c.req.valid("form");
        if (body.grant_type !== DEVICE_CODE_GRANT)
          throw tokenError(UNSUPPORTED_GRANT_TYPE, `grant_type must be ${DEVICE_CODE_GRANT}.`);
        const result = await deviceFlow.poll(body.device_code, c.req.header("user-agent") ?? null);
        c.header("Cache-Control", "no-store");
        if (result.outcome === "approved") {
          return c.json(
            {
              session_token: result.session.token,
              token_type: "Bearer" as const,
              expires_at: result.session.expiresAt.toISOString(),
              user: publicUser(result.user),
            },
            200,
          );
        }
        throw tokenError(result.outcome, POLL_MESSAGES[result.outcome]);
      },
    )
    .openapi({ ...verificationPage, middleware: [on, limited("device-page", 30, 60)] }, (c) =>
      page(c, codeEntryPage(c.req.valid("query").user_code ?? ""), 200),
    )
    .openapi(
      {
        ...verificationSubmit,
        middleware: [
          on,
          bodyLimit,
          limited("device-code", 10, 20, "code attempts"),
          allCodeEntries,
        ],
      },
      async (c) => {
        const typed = c.req.valid("form").user_code ?? "";
        const authorize = await deviceFlow.beginVerification(typed);
        if (!authorize) {
          const message =
            "This code is not waiting for a sign-in: check it against your terminal, or start the command again if it expired.";
          if (!wantsHtml(c)) return c.json({ error: INVALID_USER_CODE, message }, 400);
          return page(c, codeEntryPage(typed.slice(0, 16), message), 400);
        }
        return c.redirect(authorize, 303);
      },
    )
    .openapi(
      { ...verificationConfirm, middleware: [on, bodyLimit, limited("device-confirm")] },
      async (c) => {
        // The one-time token is what makes the form unforgeable; a browser that says the request
        // comes from another site is refused before it is even looked at.
        const site = c.req.header("sec-fetch-site");
        const origin = c.req.header("origin");
        if (
          (site && site !== "same-origin" && site !== "none") ||
          (origin && origin !== new URL(config.publicUrl).origin)
        )
          return page(
            c,
            resultPage("Refused", "This confirmation was sent from another site."),
            403,
          );
        const { confirm, decision } = c.req.valid("form");
        const approve = decision === "approve";
        const decided =
          confirm !== undefined && (approve || decision === "deny")
            ? await deviceFlow.decide(confirm, approve)
            : false;
        if (!decided)
          return page(
            c,
            resultPage(
              "Confirmation expired",
              "This confirmation is unknown, was already answered, or its code expired. Start the command again.",
            ),
            400,
          );
        return page(
          c,
          approve
            ? resultPage(
                "Signed in",
                "The command-line tool is signed in. You can close this window and return to your terminal.",
              )
            : resultPage(
                "Denied",
                "The command-line tool was not signed in. It says so in your terminal.",
              ),
          200,
        );
      },
    );
}

const POLL_MESSAGES: Record<Exclude<PollResult["outcome"], "approved">, string> = {
  authorization_pending: "The sign-in has not been approved yet; poll again after the interval.",
  slow_down: "Polled too soon: wait 5 seconds longer between polls from now on.",
  expired_token: "The code expired before it was approved; start the sign-in again.",
  access_denied: "The sign-in was denied.",
  invalid_grant: "This device code is unknown or was already used; start the sign-in again.",
};
