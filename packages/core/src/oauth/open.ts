import { bearer, endpoint, sendPlatformRequest, type HttpOptions } from "../transport/index.ts";
import {
  accessTokenDetailSchema,
  accessTokenListSchema,
  userInfoSchema,
  type AccessTokenDetail,
  type AccessTokenMeta,
  type UserInfo,
} from "../schemas/index.ts";

/**
 * Settings of an open-endpoint call (spec 4.3–4.5).
 *
 * @example
 * ```ts
 * const settings: OpenEndpointOptions = { baseUrl: "http://127.0.0.1:4010", accessToken };
 * ```
 */
export interface OpenEndpointOptions extends HttpOptions {
  /** `{base_url}` of the platform. */
  baseUrl: string;
  /** The OAuth `access_token` (spec 5 rule 3). */
  accessToken: string;
}

/**
 * The signed-in user: `GET {base_url}/api/open/v1/userinfo` (spec 4.3, 2.3).
 *
 * @example
 * ```ts
 * const user = await getUserInfo({ baseUrl, accessToken });
 * ```
 */
export function getUserInfo(options: OpenEndpointOptions): Promise<UserInfo> {
  return sendPlatformRequest(
    {
      method: "GET",
      url: endpoint(options.baseUrl, "/api/open/v1/userinfo"),
      headers: bearer(options.accessToken),
      schema: userInfoSchema,
    },
    options,
  );
}

/**
 * The access tokens of a namespace (meta only): `GET {base_url}/api/open/v1/{namespace}/tokens`
 * (spec 4.4, 2.4). Needs scope `api_key`.
 *
 * @example
 * ```ts
 * const tokens = await listAccessTokens({ baseUrl, accessToken, namespace: "demo" });
 * ```
 */
export function listAccessTokens(
  options: OpenEndpointOptions & { namespace: string },
): Promise<AccessTokenMeta[]> {
  return sendPlatformRequest(
    {
      method: "GET",
      url: endpoint(options.baseUrl, "/api/open/v1/{}/tokens", options.namespace),
      headers: bearer(options.accessToken),
      schema: accessTokenListSchema,
    },
    options,
  );
}

/**
 * One access token with a fresh short-lived proxy token:
 * `GET {base_url}/api/open/v1/{namespace}/tokens/{id}` (spec 4.5, 2.5). `expires_in` is
 * authoritative (spec 8).
 *
 * @example
 * ```ts
 * const { proxy_access_token, expires_in } =
 *   await getAccessTokenDetail({ baseUrl, accessToken, namespace: "demo", id: 7 });
 * ```
 */
export function getAccessTokenDetail(
  options: OpenEndpointOptions & { namespace: string; id: number | string },
): Promise<AccessTokenDetail> {
  return sendPlatformRequest(
    {
      method: "GET",
      url: endpoint(options.baseUrl, "/api/open/v1/{}/tokens/{}", options.namespace, options.id),
      headers: bearer(options.accessToken),
      schema: accessTokenDetailSchema,
    },
    options,
  );
}
