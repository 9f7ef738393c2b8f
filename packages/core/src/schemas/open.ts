import { z } from "zod";
import { secondsSchema } from "./numbers.ts";

/**
 * User info of `GET {base_url}/api/open/v1/userinfo` (spec 2.3, 4.3).
 *
 * `id` (integer) and `login` are required. `name` and `avatar_url` may be missing or `null`:
 * accounts without a display name or picture are common on platforms of this kind, and failing
 * sign-in over a cosmetic field would be worse than showing the login. Unknown fields are kept.
 *
 * @example
 * ```ts
 * const user = userInfoSchema.parse(body);
 * const label = user.name ?? user.login;
 * ```
 */
export const userInfoSchema = z.looseObject({
  id: z.number().int(),
  login: z.string().min(1),
  name: z.string().nullish(),
  avatar_url: z.string().nullish(),
});

/**
 * Parsed {@link userInfoSchema} (spec 2.3).
 *
 * @example
 * ```ts
 * const user: UserInfo = await client.getUserInfo(accessToken);
 * ```
 *
 * @useDeclaredType
 */
export type UserInfo = z.infer<typeof userInfoSchema>;

/**
 * Usage scenarios of an access token named by the spec (spec 2.4). Others are kept as strings.
 *
 * @example
 * ```ts
 * const known = (USAGE_SCENARIOS as readonly string[]).includes(token.usage_scenario);
 * ```
 */
export const USAGE_SCENARIOS = ["paid", "trial"] as const;

/**
 * Access-token meta, one item of the list endpoint (spec 2.4, 4.4). `usage_scenario` stays a
 * string: `paid` and `trial` are the known values, an unknown one is kept, not rejected.
 *
 * @example
 * ```ts
 * accessTokenMetaSchema.parse({ id: 7, name: "Studio (paid)", usage_scenario: "paid" });
 * ```
 */
export const accessTokenMetaSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  usage_scenario: z.string(),
});

/**
 * Parsed {@link accessTokenMetaSchema} (spec 2.4).
 *
 * @example
 * ```ts
 * const tokens: AccessTokenMeta[] = await client.listAccessTokens(accessToken, "demo");
 * ```
 *
 * @useDeclaredType
 */
export type AccessTokenMeta = z.infer<typeof accessTokenMetaSchema>;

/**
 * Body of `GET {base_url}/api/open/v1/{namespace}/tokens`: a JSON array of meta (spec 4.4).
 *
 * @example
 * ```ts
 * const tokens = accessTokenListSchema.parse(body); // AccessTokenMeta[]
 * ```
 */
export const accessTokenListSchema = z.array(accessTokenMetaSchema);

/**
 * Access-token detail with the short-lived proxy token (spec 2.5, 4.5). `expires_in` is
 * authoritative (normally 1800 s) and accepts a numeric string.
 *
 * @example
 * ```ts
 * const detail = accessTokenDetailSchema.parse(body);
 * const expiresAt = Date.now() + detail.expires_in * 1000;
 * ```
 */
export const accessTokenDetailSchema = accessTokenMetaSchema.extend({
  proxy_access_token: z.string().min(1),
  expires_in: secondsSchema,
});

/**
 * Parsed {@link accessTokenDetailSchema} (spec 2.5).
 *
 * @example
 * ```ts
 * const detail: AccessTokenDetail = await client.getAccessTokenDetail(accessToken, "demo", 7);
 * ```
 *
 * @useDeclaredType
 */
export type AccessTokenDetail = z.infer<typeof accessTokenDetailSchema>;
