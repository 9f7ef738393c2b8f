import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import { wantsHtml } from "../../lib/html-page.ts";
import { apiBodyLimit } from "../../middleware/body-limit.ts";
import { rateLimit } from "../../middleware/rate-limit.ts";
import { relayEnabled } from "../../middleware/relay-enabled.ts";
import type { AppDeps } from "../../services/index.ts";
import { INVALID_USER_CODE } from "../../schemas/error-codes.ts";
import { codeEntryPage, resultPage, sendPage } from "./device-page.ts";
import { verificationConfirm, verificationPage, verificationSubmit } from "./device.routes.ts";

/**
 * Code entries allowed for everyone together, on top of each address's own limit: a guesser
 * with many addresses still gets at most a few hundred tries while a code lives (10 minutes) out
 * of 2.6·10^10 codes. A flood can make people wait a minute to enter a code; it never lets one in.
 */
const ALL_CODE_ENTRIES = { burst: 100, perMinute: 60 };

/**
 * The person's side of the command-line sign-in: `/device` takes the code their terminal shows
 * and sends them to the platform's sign-in; after it, `/oauth/callback` shows the Allow form
 * (device-callback.ts), which `/device/confirm` answers.
 */
export function verificationRouter(deps: AppDeps) {
  const { config } = deps;
  const { deviceFlow, rateLimits } = deps.services;
  const platformOrigin = new URL(config.platform.baseUrl).origin;
  const ownOrigin = new URL(config.publicUrl).origin;
  const limited = (name: string, burst = 10, perMinute = 20, what?: string) =>
    rateLimit({
      name,
      burst,
      perMinute,
      store: rateLimits,
      trustedProxies: config.trustedProxies,
      ...(what ? { what } : {}),
    });
  const on = relayEnabled(config.relay.enabled);
  const bodyLimit = apiBodyLimit();
  const page = (
    c: Context<AppEnv>,
    body: Parameters<typeof sendPage>[1],
    status: 200 | 400 | 403 | 429,
  ) => sendPage(c, body, status, platformOrigin);
  const allCodeEntries = allCodeEntriesLimit(rateLimits, page);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
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
        if (crossSite(c, ownOrigin))
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

/** The limit on code entries from everyone together ({@link ALL_CODE_ENTRIES}): 429 past it. */
function allCodeEntriesLimit(
  rateLimits: AppDeps["services"]["rateLimits"],
  page: (
    c: Context<AppEnv>,
    body: Parameters<typeof sendPage>[1],
    status: 429,
  ) => ReturnType<typeof sendPage>,
) {
  return createMiddleware<AppEnv>(async function codeEntriesMiddleware(c, next) {
    const { allowed } = await rateLimits.take("device-code-entries:all", {
      burst: ALL_CODE_ENTRIES.burst,
      perMs: ALL_CODE_ENTRIES.perMinute / 60_000,
    });
    if (!allowed) {
      c.header("Retry-After", "60");
      const message = "Too many codes were entered just now; try again in a minute.";
      return page(c, resultPage("Slow down", message), 429);
    }
    await next();
  });
}

/** What a browser says about where a form was sent from: another site than `ownOrigin` is refused. */
function crossSite(c: Context<AppEnv>, ownOrigin: string): boolean {
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  return (
    (site !== undefined && site !== "same-origin" && site !== "none") ||
    (origin !== undefined && origin !== ownOrigin)
  );
}
