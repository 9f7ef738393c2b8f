/**
 * Parameters of the authorization page (spec 4.1).
 *
 * @example
 * ```ts
 * const options: AuthorizeUrlOptions = { baseUrl, clientId: "overture-local",
 *   redirectUri: "http://127.0.0.1:8787/oauth/callback", scope: ["user_info"], state };
 * ```
 */
export interface AuthorizeUrlOptions {
  /** `{base_url}` of the platform. */
  baseUrl: string;
  clientId: string;
  /** Must equal the registered callback exactly (spec 4.1, 7). */
  redirectUri: string;
  /** Scopes, e.g. `["user_info", "api_key"]` (spec 5 rule 2); a string is sent as given. */
  scope: string | readonly string[];
  /** Random anti-CSRF value, returned unchanged on the callback (spec 4.1, 5 rule 7). */
  state: string;
}

/** Percent-encoding (spaces as `%20`): decodes the same with or without form decoding. */
function param(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}`;
}

/**
 * The address of the platform's authorization page, `GET {base_url}/oauth/authorize` with
 * `response_type=code`, `client_id`, `redirect_uri`, `scope` (space-separated) and `state`
 * (spec 4.1). Values are percent-encoded with spaces as `%20`, not `+`, so a server that
 * percent-decodes without form rules still reads `user_info api_key`.
 *
 * @example
 * ```ts
 * authorizeUrl({ baseUrl: "http://127.0.0.1:4010", clientId: "overture-local",
 *   redirectUri: "http://127.0.0.1:8787/oauth/callback", scope: ["user_info", "api_key"],
 *   state: randomToken() });
 * // "http://127.0.0.1:4010/oauth/authorize?response_type=code&client_id=overture-local&…"
 * ```
 */
export function authorizeUrl(options: AuthorizeUrlOptions): string {
  const scope = typeof options.scope === "string" ? options.scope : options.scope.join(" ");
  const query = [
    param("response_type", "code"),
    param("client_id", options.clientId),
    param("redirect_uri", options.redirectUri),
    param("scope", scope),
    param("state", options.state),
  ].join("&");
  return `${options.baseUrl.replace(/\/+$/, "")}/oauth/authorize?${query}`;
}
