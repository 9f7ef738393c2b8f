import { endpoint, sendPlatformRequest, type HttpOptions } from "../transport/index.ts";
import { OAUTH_INVALID_CLIENT, PlatformError, isPlatformError } from "../errors/index.ts";
import { tokenResponseSchema, type TokenResponse } from "../schemas/index.ts";

/**
 * How the application authenticates at the token endpoint (spec 4.2, 5 rule 1):
 *
 * - `"basic"` (default): `Authorization: Basic base64(client_id:client_secret)`, exactly as
 *   spec 4.2 writes it: the UTF-8 bytes of id, `:` and secret, with no other encoding.
 * - `"basic-rfc6749"`: HTTP Basic as RFC 6749 §2.3.1 specifies, with the id and the secret each
 *   form-urlencoded first. It differs from `"basic"` only when they hold characters other than
 *   letters, digits and `-._~`; use it for a server that decodes them.
 * - `"form"`: `client_id` and `client_secret` as form fields.
 *
 * @example
 * ```ts
 * const clientAuth: ClientAuth = "form"; // client_id and client_secret as form fields
 * ```
 */
export type ClientAuth = "basic" | "basic-rfc6749" | "form";

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
  /** Default `"basic"`; see {@link ClientAuth}. */
  clientAuth?: ClientAuth | undefined;
}

/**
 * Options of {@link basicAuthorization}.
 *
 * @example
 * ```ts
 * const options: BasicAuthorizationOptions = { encoding: "rfc6749" };
 * ```
 */
export interface BasicAuthorizationOptions {
  /** `"spec"` (default): `base64(id:secret)` of spec 4.2; `"rfc6749"`: form-urlencode the id
   * and the secret first (RFC 6749 §2.3.1). */
  readonly encoding?: "spec" | "rfc6749" | undefined;
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams([["", value]]).toString().slice(1);
}

/** Base64 of the UTF-8 bytes of `text` (`btoa` alone takes only Latin-1). */
function utf8Base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The `Authorization: Basic` value for client credentials: `base64(client_id:client_secret)`
 * of the UTF-8 bytes, as spec 4.2 writes it, so a secret with `+`, `/`, `=`, `:` or `%` reaches
 * the platform unchanged. With `{ encoding: "rfc6749" }` the id and the secret are each
 * form-urlencoded first (RFC 6749 §2.3.1); the two agree for letters, digits and `-._~`.
 *
 * @example
 * ```ts
 * basicAuthorization("overture-local", "s3cret"); // "Basic b3ZlcnR1cmUtbG9jYWw6czNjcmV0"
 * basicAuthorization("app", "a+b", { encoding: "rfc6749" }); // base64 of "app:a%2Bb"
 * ```
 */
export function basicAuthorization(
  clientId: string,
  clientSecret: string,
  options: BasicAuthorizationOptions = {},
): string {
  if (options.encoding === "rfc6749") {
    return `Basic ${utf8Base64(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
  }
  return `Basic ${utf8Base64(`${clientId}:${clientSecret}`)}`;
}

const CLIENT_AUTH_NAMES: Record<ClientAuth, string> = {
  basic: "HTTP Basic, base64(client_id:client_secret) as spec 4.2 writes it",
  "basic-rfc6749": "HTTP Basic with id and secret form-urlencoded first (RFC 6749 §2.3.1)",
  form: "form fields client_id and client_secret",
};

/**
 * The token endpoint refused the client (its message already says it is a configuration
 * problem): adds that it is not retried and which mode was used, keeping code, status and body.
 */
function invalidClient(error: PlatformError, clientAuth: ClientAuth): PlatformError {
  const message = `${error.message}. Not retried: the same credentials would be refused again. Client authentication used: ${CLIENT_AUTH_NAMES[clientAuth]}.`;
  return new PlatformError(OAUTH_INVALID_CLIENT, message, {
    status: error.status,
    body: error.body,
    platformCode: error.platformCode,
    cause: error,
  });
}

async function tokenRequest(
  options: TokenEndpointOptions,
  fields: Record<string, string>,
): Promise<TokenResponse> {
  const clientAuth = options.clientAuth ?? "basic";
  const body = new URLSearchParams(fields);
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if (clientAuth === "form") {
    body.set("client_id", options.clientId);
    body.set("client_secret", options.clientSecret);
  } else {
    const encoding = clientAuth === "basic-rfc6749" ? "rfc6749" : "spec";
    headers.Authorization = basicAuthorization(options.clientId, options.clientSecret, {
      encoding,
    });
  }
  try {
    return await sendPlatformRequest(
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
  } catch (error) {
    if (isPlatformError(error, OAUTH_INVALID_CLIENT)) throw invalidClient(error, clientAuth);
    throw error;
  }
}

/**
 * Exchanges an authorization code for tokens: `POST {base_url}/api/open/oauth/token` with
 * `grant_type=authorization_code` (spec 4.2). Never retried: a code is single use (spec 3.2), so
 * a second attempt after an ambiguous failure could only fail. A refused code is
 * `OAUTH_INVALID_GRANT`; refused client credentials are `OAUTH_INVALID_CLIENT`, whose message
 * says it is a configuration problem and names the client authentication mode used.
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
