import { endpoint } from "../client/urls.ts";
import { sendPlatformRequest, type HttpOptions } from "../client/http.ts";
import { tokenResponseSchema, type TokenResponse } from "../schemas/index.ts";

/**
 * How the application authenticates at the token endpoint (spec 4.2, 5 rule 1).
 *
 * @example
 * ```ts
 * const clientAuth: ClientAuth = "form"; // client_id and client_secret as form fields
 * ```
 */
export type ClientAuth = "basic" | "form";

/**
 * Settings common to both grants of the token endpoint (spec 4.2).
 *
 * @example
 * ```ts
 * const settings: TokenEndpointOptions = { baseUrl, clientId, clientSecret, clientAuth: "basic" };
 * ```
 */
export interface TokenEndpointOptions extends HttpOptions {
  /** `{base_url}` of the platform. */
  baseUrl: string;
  clientId: string;
  /** Server-side only (spec 1 rule 6). */
  clientSecret: string;
  /** `"basic"` (default): HTTP Basic header; `"form"`: `client_id`/`client_secret` fields. */
  clientAuth?: ClientAuth;
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams([["", value]]).toString().slice(1);
}

/**
 * The `Authorization: Basic` value for client credentials. Per RFC 6749 §2.3.1 the id and the
 * secret are each form-urlencoded before `id:secret` is base64-encoded; for credentials made of
 * letters, digits and `-._~` (the usual case) this equals plain `base64(id:secret)` of spec 4.2.
 *
 * @example
 * ```ts
 * basicAuthorization("overture-local", "s3cret"); // "Basic b3ZlcnR1cmUtbG9jYWw6czNjcmV0"
 * ```
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  // After form-encoding the text is ASCII, so btoa is safe.
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}

async function tokenRequest(
  options: TokenEndpointOptions,
  fields: Record<string, string>,
): Promise<TokenResponse> {
  const body = new URLSearchParams(fields);
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if ((options.clientAuth ?? "basic") === "basic")
    headers.Authorization = basicAuthorization(options.clientId, options.clientSecret);
  else {
    body.set("client_id", options.clientId);
    body.set("client_secret", options.clientSecret);
  }
  return sendPlatformRequest(
    {
      method: "POST",
      url: endpoint(options.baseUrl, "/api/open/oauth/token"),
      headers,
      body,
      schema: tokenResponseSchema,
      tokenEndpoint: true,
    },
    options,
  );
}

/**
 * Exchanges an authorization code for tokens: `POST {base_url}/api/open/oauth/token` with
 * `grant_type=authorization_code` (spec 4.2). Never retried: a code is single use (spec 3.2), so
 * a second attempt after an ambiguous failure could only fail. A refused code is
 * `OAUTH_INVALID_GRANT`, refused credentials `OAUTH_INVALID_CLIENT`.
 *
 * @example
 * ```ts
 * const token = await exchangeCode({ baseUrl, clientId, clientSecret, code,
 *   redirectUri: "http://127.0.0.1:8787/oauth/callback" });
 * ```
 */
export function exchangeCode(
  options: TokenEndpointOptions & { code: string; redirectUri: string },
): Promise<TokenResponse> {
  return tokenRequest(options, {
    grant_type: "authorization_code",
    code: options.code,
    redirect_uri: options.redirectUri,
  });
}

/**
 * Obtains a new token pair with a refresh token: `grant_type=refresh_token` (spec 4.2, 3.2
 * rule 4). Never retried automatically: a refresh token may be single use, and DESIGN makes the
 * refresh happen once across instances. A refused refresh token is `OAUTH_INVALID_GRANT` (the
 * grant is gone; ask the user to sign in again); a network failure is not.
 *
 * @example
 * ```ts
 * const token = await refreshGrant({ baseUrl, clientId, clientSecret, refreshToken });
 * ```
 */
export function refreshGrant(
  options: TokenEndpointOptions & { refreshToken: string },
): Promise<TokenResponse> {
  return tokenRequest(options, {
    grant_type: "refresh_token",
    refresh_token: options.refreshToken,
  });
}
