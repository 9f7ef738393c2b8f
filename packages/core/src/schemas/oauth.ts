import { z } from "zod";
import { secondsSchema } from "./numbers.ts";

/**
 * `schema`, or absent: `null` (and any of `absent`) comes out as a missing field. A preprocess,
 * not a transform, so that the field stays optional in the parsed type.
 */
const orAbsent = <T extends z.ZodType>(schema: T, absent: readonly unknown[] = [null]) =>
  z.preprocess((value) => (absent.includes(value) ? undefined : value), schema.optional());

/**
 * OAuth token response of the token endpoint, for both grants (spec 2.2, 4.2).
 *
 * Only `access_token` is required. `expires_in`, `refresh_token` and `scope` are optional because
 * RFC 6749 §5.1 allows a server to leave them out (the spec lists them, and the platform's token
 * answers are not shown publicly); `null` reads as absent, as many servers serialise a missing
 * field. A missing or `null` `token_type` reads as `Bearer`, the only type the spec uses (2.2):
 * failing a sign-in over it would help nobody. `expires_in` accepts a numeric string (`"7200"`)
 * and yields a number. Unknown fields are kept.
 *
 * @example
 * ```ts
 * const token = tokenResponseSchema.parse(await response.json());
 * const expiresAt = Date.now() + (token.expires_in ?? 0) * 1000;
 * ```
 */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.preprocess((type) => type ?? "Bearer", z.string()),
  expires_in: orAbsent(secondsSchema),
  // An empty one is no refresh token either: the grant then ends with its access token.
  refresh_token: orAbsent(z.string().min(1), [null, ""]),
  scope: orAbsent(z.string()),
});

/**
 * Parsed {@link tokenResponseSchema} (spec 2.2).
 *
 * @example
 * ```ts
 * const token: TokenResponse = await client.exchangeCode({ code, redirectUri });
 * ```
 *
 * @useDeclaredType
 */
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/**
 * Error body of the token endpoint as RFC 6749 §5.2 defines it: `{ error, error_description? }`.
 * The spec does not show the platform's token errors (spec 7, 4.2); this is the standard shape.
 *
 * @example
 * ```ts
 * oauthErrorBodySchema.safeParse({ error: "invalid_grant" }).success; // true
 * ```
 */
export const oauthErrorBodySchema = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
  error_uri: z.string().optional(),
});

/**
 * Parsed {@link oauthErrorBodySchema} (RFC 6749 §5.2; spec 7 does not show it).
 *
 * @example
 * ```ts
 * const body: OAuthErrorBody = { error: "invalid_grant", error_description: "code used" };
 * ```
 *
 * @useDeclaredType
 */
export type OAuthErrorBody = z.infer<typeof oauthErrorBodySchema>;
