/**
 * OAuth 2.0 authorization-code integration (spec 4.1–4.5, 5): the authorization URL, PKCE and
 * random tokens (WebCrypto), the token endpoint (code exchange, refresh) and the open endpoints
 * (user info, access-token list and detail). Each call sends one request: retries of the
 * idempotent open endpoints live in `createPlatformClient` (`@overture/core/client`).
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
