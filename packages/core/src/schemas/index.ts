/**
 * Zod schemas of every platform resource (spec 2) and error body (spec 7). Objects are loose:
 * unknown fields are kept, so richer real-world bodies parse and nothing is silently dropped.
 *
 * ## Choices where the spec is silent
 *
 * Loose objects everywhere; numbers also accepted as numeric strings (`"7200"`), never hex, `""`,
 * `NaN` or `Infinity`; only the fields a consumer cannot do without are required; the quota body
 * is `{ available, max_concurrency }` or a bare number; a task timestamp below 10^11 (10 digits:
 * seconds, which some endpoint may send) is converted to ms. A task's result link is
 * `output.file_url`, or `output.url` on some live outputs: read it with `taskResultUrl`.
 *
 * @packageDocumentation
 */
export { numberish, secondsSchema } from "./numbers.ts";
export { tokenResponseSchema, oauthErrorBodySchema } from "./oauth.ts";
export type { TokenResponse, OAuthErrorBody } from "./oauth.ts";
export {
  USAGE_SCENARIOS,
  userInfoSchema,
  accessTokenMetaSchema,
  accessTokenListSchema,
  accessTokenDetailSchema,
} from "./open.ts";
export type { UserInfo, AccessTokenMeta, AccessTokenDetail } from "./open.ts";
export {
  usageInfoSchema,
  taskErrorSchema,
  taskOutputSchema,
  taskUrlsSchema,
  submitResponseSchema,
  taskSchema,
  callbackEventSchema,
  cancelResponseSchema,
  taskErrorMessage,
  taskResultUrl,
  signedLinkExpiresAt,
} from "./task.ts";
import type { CallbackEventBody } from "./task.ts";
export type {
  UsageInfo,
  TaskError,
  TaskOutput,
  SubmitResponse,
  Task,
  CallbackEventBody,
  CancelResponse,
} from "./task.ts";
/**
 * The former name of `CallbackEventBody`, the wire shape with `status: string`, kept so code that
 * imports it from here compiles unchanged. New code: `CallbackEventBody` for the wire shape, or
 * `CallbackEvent` of `@overture/core/receiver`, which narrows on `status` (a success carries its
 * result link). This name is to become that union in a later minor version.
 *
 * @example
 * ```ts
 * const body: CallbackEventBody = callbackEventSchema.parse(json); // not CallbackEvent
 * ```
 */
export type CallbackEvent = CallbackEventBody;
export { quotaSchema, readQuota } from "./quota.ts";
export type { Quota, QuotaReading } from "./quota.ts";
export { balanceSchema } from "./balance.ts";
export type { Balance } from "./balance.ts";
export { platformErrorBodySchema } from "./error-body.ts";
export type { PlatformErrorBody } from "./error-body.ts";
export { musicParamsSchema, musicFieldErrors } from "../music/schema.ts";
