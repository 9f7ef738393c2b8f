/**
 * Zod schemas of every platform resource (spec 2) and error body (spec 7). Objects are loose:
 * unknown fields are kept, so richer real-world bodies parse and nothing is silently dropped.
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
export type {
  UsageInfo,
  TaskError,
  TaskOutput,
  SubmitResponse,
  Task,
  CallbackEvent,
  CancelResponse,
} from "./task.ts";
export { quotaSchema, readQuota } from "./quota.ts";
export type { Quota, QuotaReading } from "./quota.ts";
export { balanceSchema } from "./balance.ts";
export type { Balance } from "./balance.ts";
export { platformErrorBodySchema } from "./error-body.ts";
export type { PlatformErrorBody } from "./error-body.ts";
export { musicParamsSchema, musicFieldErrors } from "../music/schema.ts";
