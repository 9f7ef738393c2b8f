import { createRoute, z } from "@hono/zod-openapi";
import { sessionTokenSchema } from "../../schemas/account.ts";
import { errorBody } from "../../schemas/common.ts";
import {
  deviceAuthorizationSchema,
  deviceRequestSchema,
  deviceTokenRequestSchema,
} from "../../schemas/device.ts";
import { json } from "../shared-schemas.ts";

const tags = ["Command-line sign-in"];
const form = <T extends z.ZodType>(schema: T) => ({
  "application/x-www-form-urlencoded": { schema },
});
const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});
const disabled = {
  404: { description: "`not_found`: RELAY_ENABLED is off", content: json(errorBody) },
};

export const deviceAuthorization = createRoute({
  method: "post",
  path: "/auth/device",
  tags,
  summary: "Start a command-line sign-in (RFC 8628 device authorization request)",
  description:
    "For `overture-webhooks listen`. Show `user_code` and `verification_uri` to the person, then poll `POST /auth/device/token` every `interval` seconds. On only while `RELAY_ENABLED` is on.",
  request: { body: { required: false, content: form(deviceRequestSchema) } },
  responses: {
    200: { description: "The codes", content: json(deviceAuthorizationSchema) },
    429: { description: "`rate_limited`, with `Retry-After`", content: json(errorBody) },
    ...disabled,
  },
});

export const deviceToken = createRoute({
  method: "post",
  path: "/auth/device/token",
  tags,
  summary: "Poll for the session of an approved command-line sign-in (RFC 8628 §3.4)",
  description:
    "`grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=…`. Until the person decides: 400 `authorization_pending`, or `slow_down` when polled sooner than `interval` (add 5 s to it). Then 400 `access_denied` or `expired_token`, or 200 with a session token (once; it is listed among the user's signed-in devices).",
  request: { body: { required: true, content: form(deviceTokenRequestSchema) } },
  responses: {
    200: { description: "Approved: the session", content: json(sessionTokenSchema) },
    400: {
      description:
        "`authorization_pending`, `slow_down`, `access_denied`, `expired_token`, `invalid_grant` (unknown or used device code), `unsupported_grant_type`, `invalid_request`",
      content: json(errorBody),
    },
    429: { description: "`rate_limited`, with `Retry-After`", content: json(errorBody) },
    ...disabled,
  },
});

export const verificationPage = createRoute({
  method: "get",
  path: "/device",
  tags,
  summary: "The verification page: the person enters the code their terminal shows",
  request: { query: z.object({ user_code: z.string().max(64).optional() }) },
  responses: { 200: page("The code form"), 429: page("Too many requests"), ...disabled },
});

export const verificationSubmit = createRoute({
  method: "post",
  path: "/device",
  tags,
  summary: "Check the code and send the person to the platform's sign-in",
  description:
    "Limited per address and for everyone at once, so that guessing a code is hopeless within its lifetime. A known code answers 303 to the platform's authorization page (the extension's sign-in, with the backend's own callback); after it, the callback shows the confirmation form.",
  request: {
    body: { required: false, content: form(z.object({ user_code: z.string().optional() })) },
  },
  responses: {
    303: { description: "To `{base_url}/oauth/authorize`" },
    400: {
      description: "`invalid_user_code`: the form again, saying so (JSON for a non-browser client)",
      content: { "text/html": { schema: z.string() }, "application/json": { schema: errorBody } },
    },
    429: page("Too many code attempts"),
    ...disabled,
  },
});

export const verificationConfirm = createRoute({
  method: "post",
  path: "/device/confirm",
  tags,
  summary: "Approve or deny the command-line sign-in",
  description:
    "Carries the one-time `confirm` token of the confirmation form the callback showed, so no other site can submit it; a cross-site request (`Sec-Fetch-Site`, `Origin`) is refused too.",
  request: {
    body: {
      required: false,
      content: form(z.object({ confirm: z.string().optional(), decision: z.string().optional() })),
    },
  },
  responses: {
    200: page("Approved or denied: return to the terminal"),
    400: page("Unknown, used or expired confirmation"),
    403: page("A cross-site request"),
    ...disabled,
  },
});
