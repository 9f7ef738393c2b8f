/**
 * Webhook signatures of the platform's task callbacks (spec 4.8, 4.9, 5.6-5.8, 7): the signed
 * query string, signing for the emulator and tests, and verification with diagnostics for the
 * receiver. Web APIs only (WebCrypto, TextEncoder); no dependencies.
 *
 * The plain path comes first: codes, headers, the canonical query, HMAC, signing and
 * `verifyWebhook`. The diagnosis of a mismatch lives in `diagnose/`, the synchronous fast path
 * for `node:crypto` (`verifyWebhookSync`, `createHmac`) in `sync/`.
 *
 * @packageDocumentation
 */
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
export { SIGNATURE_HEADER, SIGN_TIMESTAMP_HEADER, readHeader } from "./headers.ts";
export type { WebhookHeaders, WebhookSignatureHeaders } from "./headers.ts";
export { canonicalQuery, compareCodePoints, queryOf } from "./canonical-query.ts";
export type { CanonicalQueryOptions, QueryReading } from "./canonical-query.ts";
export {
  constantTimeEqual,
  constantTimeEqualHex,
  isLowerHexSignature,
  isTimestamp13,
} from "./compare.ts";
export { createWebCryptoHmac, toHex, webCryptoHmacSha256Hex } from "./hmac.ts";
export type { HmacSha256Hex, HmacSha256HexSync, WebCryptoHmacOptions } from "./hmac.ts";
export { readWebhookBody } from "./body.ts";
export type { WebhookBody, WebhookBodyReading } from "./body.ts";
export { signWebhook, signingText } from "./sign.ts";
export type { SignWebhookInput } from "./sign.ts";
export { DEFAULT_WEBHOOK_TOLERANCE_MS } from "./checks.ts";
export { verifyWebhook } from "./verify.ts";
export type {
  VerifyWebhookInput,
  VerifyWebhookOptions,
  WebhookRejected,
  WebhookVerification,
  WebhookVerified,
} from "./types.ts";

// Every rule of one delivery, for a person (the CLI's verify).
export { diagnoseWebhook } from "./diagnose/diagnose-webhook.ts";
export type {
  WebhookDiagnosis,
  WebhookRule,
  WebhookRuleCheck,
} from "./diagnose/diagnose-webhook.ts";

// The synchronous fast path (node:crypto and alike).
export { hmacSha256HexFrom } from "./sync/create-hmac.ts";
export { hmacSha256HexFromHash } from "./sync/one-shot-hash.ts";
export type { HashSha256 } from "./sync/one-shot-hash.ts";
export type { CreateHmac, HmacStream } from "./sync/create-hmac.ts";
export { verifyWebhookSync } from "./sync/verify-sync.ts";
export type { VerifyWebhookSyncInput } from "./sync/verify-sync.ts";
