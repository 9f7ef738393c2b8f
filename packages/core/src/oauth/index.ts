/**
 * OAuth 2.0 authorization-code integration (spec 4.1–4.5, 5): the authorization URL, PKCE and
 * random tokens (WebCrypto), the token endpoint (code exchange, refresh) and the open endpoints
 * (user info, access-token list and detail). Each call sends one request: retries of the
 * idempotent open endpoints live in `createPlatformClient` (`@overture/core/client`).
 *
 * ## Choices where the spec is silent
 *
 * Client authentication (spec 4.2): HTTP Basic by default, `base64(client_id:client_secret)` of
 * the UTF-8 bytes with no other encoding, as the spec writes it, so a secret with `+`, `/`, `=`,
 * `:` or `%` arrives unchanged. RFC 6749 §2.3.1 form-urlencodes id and secret first: that reading
 * is the explicit `clientAuth: "basic-rfc6749"`; `"form"` sends them as form fields. A refused
 * client (`OAUTH_INVALID_CLIENT`) is a configuration problem: the message says so, names the mode
 * used, and the call is never retried. On the token endpoint, `invalid_grant` →
 * `OAUTH_INVALID_GRANT`; `invalid_client`, `unauthorized_client` or a bare 401 →
 * `OAUTH_INVALID_CLIENT`; other RFC 6749 errors → `PLATFORM_BAD_REQUEST`.
 *
 * @packageDocumentation
 */
export { authorizeUrl } from "./authorize.ts";
export type { AuthorizeUrlOptions } from "./authorize.ts";
export { randomToken, isPkceVerifier, pkceChallenge, createPkcePair } from "./pkce.ts";
export type { PkcePair } from "./pkce.ts";
export { basicAuthorization, exchangeCode, refreshGrant } from "./token.ts";
export type { BasicAuthorizationOptions, ClientAuth, TokenEndpointOptions } from "./token.ts";
export { getUserInfo, listAccessTokens, getAccessTokenDetail } from "./open.ts";
export type { OpenEndpointOptions } from "./open.ts";
