import { createRoute, z } from "@hono/zod-openapi";
import { sessionTokenSchema, signInCheckSchema } from "../../schemas/account.ts";
import { errorBody } from "../../schemas/common.ts";
import { json } from "../shared-schemas.ts";

const tags = ["Sign-in"];

const htmlOrJsonError = (description: string) => ({
  description,
  content: {
    "text/html": { schema: z.string() },
    "application/json": { schema: errorBody },
  },
});

// Query fields are optional in the schema on purpose: the handler checks them itself so a bad
// sign-in link gets a readable page (HTML for a browser), never the JSON validation body.
export const start = createRoute({
  method: "get",
  path: "/auth/start",
  tags,
  summary: "Begin sign-in: redirects to the platform's authorization page",
  description:
    "Opened by the extension with `identity.launchWebAuthFlow`. `redirect_uri` must be on the backend's allow-list (the extension's identity redirect URL); a refused one gets an error page, never a redirect.",
  request: {
    query: z.object({
      redirect_uri: z
        .string()
        .optional()
        .openapi({ example: "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/" }),
      code_challenge: z
        .string()
        .optional()
        .openapi({ description: "base64url(SHA-256(code_verifier)), 43 characters" }),
      code_challenge_method: z.string().optional().openapi({ example: "S256" }),
    }),
  },
  responses: {
    302: { description: "Redirect to `{base_url}/oauth/authorize`" },
    400: htmlOrJsonError(
      "The redirect URL is not allowed or the PKCE challenge is missing or malformed",
    ),
    429: htmlOrJsonError("Too many sign-in requests from this address"),
  },
});

export const check = createRoute({
  method: "get",
  path: "/auth/check",
  tags,
  summary: "Check a sign-in's redirect URL before opening the sign-in window",
  description:
    "Lets the extension tell its person, before any window opens, that this backend does not allow the browser's redirect URL, and which callback address the platform must know. Both facts are configuration, not secrets.",
  request: {
    query: z.object({
      redirect_uri: z
        .string()
        .max(2048)
        .openapi({ example: "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/" }),
    }),
  },
  responses: {
    200: { description: "The check", content: json(signInCheckSchema) },
    400: { description: "`redirect_uri` missing", content: json(errorBody) },
    429: { description: "Too many requests", content: json(errorBody) },
  },
});

export const callback = createRoute({
  method: "get",
  path: "/oauth/callback",
  tags,
  summary: "The platform's redirect back after the user decided (spec 4.1)",
  description:
    "Consumes the single-use `state`, exchanges the code, stores the grant and redirects to the extension with a one-time `code` (or `error`, `error_description`). An unknown, used or expired `state` gets an error page: without it there is no trusted place to redirect to.",
  request: {
    query: z.object({
      code: z.string().optional(),
      state: z.string().optional(),
      error: z.string().optional(),
      error_description: z.string().optional(),
    }),
  },
  responses: {
    302: { description: "Redirect to the extension's redirect URL with `code`, or with `error`" },
    400: htmlOrJsonError("Unknown, used or expired sign-in attempt"),
    429: htmlOrJsonError("Too many sign-in requests from this address"),
  },
});

export const tokenRequest = z.object({
  code: z.string().min(1).max(256).openapi({ description: "The hand-off code from the redirect" }),
  code_verifier: z
    .string()
    .regex(
      /^[A-Za-z0-9._~-]{43,128}$/,
      "must be 43–128 characters of A–Z a–z 0–9 . _ ~ - (RFC 7636)",
    )
    .openapi({ description: "The PKCE verifier whose S256 challenge started the sign-in" }),
});

export const token = createRoute({
  method: "post",
  path: "/auth/token",
  tags,
  summary: "Redeem the hand-off code and PKCE verifier for a session token",
  request: { body: { content: { "application/json": { schema: tokenRequest } }, required: true } },
  responses: {
    200: { description: "Signed in", content: json(sessionTokenSchema) },
    400: {
      description:
        "`invalid_request` (malformed body) or `invalid_grant` (unknown, used or expired code, or wrong verifier)",
      content: json(errorBody),
    },
    429: {
      description: "Too many requests",
      content: json(errorBody),
    },
  },
});

export const logout = createRoute({
  method: "post",
  path: "/auth/logout",
  tags,
  summary: "Sign out this device (revokes the calling session)",
  security: [{ session: [] }],
  responses: {
    204: { description: "Signed out" },
    401: {
      description: "No valid session",
      content: json(errorBody),
    },
  },
});
