/**
 * Webhook signatures of the platform's task callbacks (spec 4.8, 4.9, 5.6-5.8, 7), the plain
 * path: the signed query string (`canonicalQuery`), signing as the platform does
 * (`signWebhook`, for the emulator and tests), verifying over the raw bytes (`verifyWebhook`,
 * which names the cause of a mismatch) and reading the verified body (`readWebhookBody`). Web
 * APIs only (WebCrypto, TextEncoder); no dependencies.
 *
 * Beside it, each in its own subpath: the synchronous fast path for `node:crypto`
 * (`@overture/core/webhook/sync`) and the rule-by-rule diagnosis for a person
 * (`@overture/core/webhook/diagnose`). The receivers, which do all of it for a server, are
 * `@overture/core/receiver`.
 *
 * @packageDocumentation
 */

// Sign and verify.
export { signWebhook, signingText } from "./sign.ts";
export type { SignWebhookInput } from "./sign.ts";
export { verifyWebhook } from "./verify.ts";
export type {
  VerifyWebhookInput,
  VerifyWebhookOptions,
  WebhookRejected,
  WebhookVerification,
  WebhookVerified,
} from "./types.ts";
export { DEFAULT_WEBHOOK_TOLERANCE_MS } from "./checks.ts";
export { readWebhookBody } from "./body.ts";
export type { WebhookBody, WebhookBodyReading } from "./body.ts";

// The signed query string.
export { canonicalQuery, compareCodePoints, queryOf } from "./canonical-query.ts";
export type { CanonicalQueryOptions, QueryReading } from "./canonical-query.ts";

// What a verification answers: codes, and the causes of a mismatch it names.
export {
  SIGNATURE_DIAGNOSIS_CODES,
  WEBHOOK_BODY_CODES,
  WEBHOOK_BODY_NOT_JSON,
  WEBHOOK_BODY_NOT_UTF8,
  WEBHOOK_FAILURE_CODES,
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
} from "./codes.ts";
export type {
  SignatureDiagnosis,
  SignatureDiagnosisCode,
  WebhookBodyCode,
  WebhookFailureCode,
} from "./codes.ts";

// Headers, and the parts a verifier is built from.
export { SIGNATURE_HEADER, SIGN_TIMESTAMP_HEADER, readHeader } from "./headers.ts";
export type { WebhookHeaders, WebhookSignatureHeaders } from "./headers.ts";
export { constantTimeEqual, isLowerHexSignature, isTimestamp13 } from "./compare.ts";
export { createWebCryptoHmac, toHex, webCryptoHmacSha256Hex } from "./hmac.ts";
export type { HmacSha256Hex, WebCryptoHmacOptions } from "./hmac.ts";

// Kept here for imports written before their subpaths existed; new code imports them from
// @overture/core/webhook/sync and @overture/core/webhook/diagnose.
export {
  constantTimeEqualHex,
  hmacSha256HexFrom,
  hmacSha256HexFromHash,
  verifyWebhookSync,
} from "./sync/index.ts";
export type {
  CreateHmac,
  HashSha256,
  HmacSha256HexSync,
  HmacStream,
  VerifyWebhookSyncInput,
} from "./sync/index.ts";
export { diagnoseWebhook } from "./diagnose/index.ts";
export type { WebhookDiagnosis, WebhookRule, WebhookRuleCheck } from "./diagnose/index.ts";
