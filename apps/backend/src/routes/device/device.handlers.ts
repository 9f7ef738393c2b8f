import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import { ApiError } from "../../lib/errors.ts";
import { apiBodyLimit } from "../../middleware/body-limit.ts";
import { rateLimit } from "../../middleware/rate-limit.ts";
import { relayEnabled } from "../../middleware/relay-enabled.ts";
import type { PollResult } from "../../services/auth/device-flow.ts";
import { publicUser } from "../../services/auth/users.ts";
import type { AppDeps } from "../../services/index.ts";
import { DEVICE_CODE_GRANT } from "../../schemas/device.ts";
import { type ApiErrorCode, UNSUPPORTED_GRANT_TYPE } from "../../schemas/error-codes.ts";
import { deviceAuthorization, deviceToken } from "./device.routes.ts";
import { verificationRouter } from "./verification.handlers.ts";

/**
 * The command-line sign-in (RFC 8628), for `overture-webhooks listen`: `/auth/device` and its
 * token endpoint for the device, `/device` for the person (verification.handlers.ts). Off with
 * the relay (`RELAY_ENABLED`).
 */
export function deviceRouter(deps: AppDeps) {
  const { config } = deps;
  const { deviceFlow, rateLimits } = deps.services;
  const verificationUri = `${config.publicUrl}/device`;
  const limited = (name: string, burst: number, perMinute: number) =>
    rateLimit({ name, burst, perMinute, store: rateLimits, trustedProxies: config.trustedProxies });
  const on = relayEnabled(config.relay.enabled);
  const bodyLimit = apiBodyLimit();
  const tokenError = (code: ApiErrorCode, message: string) => new ApiError(400, code, message);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(
      { ...deviceAuthorization, middleware: [on, bodyLimit, limited("auth-device", 10, 20)] },
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
    .route("/", verificationRouter(deps));
}

const POLL_MESSAGES: Record<Exclude<PollResult["outcome"], "approved">, string> = {
  authorization_pending: "The sign-in has not been approved yet; poll again after the interval.",
  slow_down: "Polled too soon: wait 5 seconds longer between polls from now on.",
  expired_token: "The code expired before it was approved; start the sign-in again.",
  access_denied: "The sign-in was denied.",
  invalid_grant: "This device code is unknown or was already used; start the sign-in again.",
};
