/**
 * Webhook signatures of the platform's task callbacks (spec 4.8, 4.9, 5.6-5.8, 7): the signed
 * query string, signing for the emulator and tests, and verification with diagnostics for the
 * receiver. Web APIs only (WebCrypto, TextEncoder); no dependencies.
 *
 * @packageDocumentation
 */
export { canonicalQuery, compareCodePoints, queryOf } from "./canonical-query.ts";
export type { CanonicalQueryOptions, QueryReading } from "./canonical-query.ts";
export {
  SIGNATURE_DIAGNOSIS_CODES,
  WEBHOOK_FAILURE_CODES,
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
} from "./codes.ts";
export type { SignatureDiagnosis, SignatureDiagnosisCode, WebhookFailureCode } from "./codes.ts";
export { constantTimeEqual, isLowerHexSignature, isTimestamp13 } from "./compare.ts";
export { SIGNATURE_HEADER, SIGN_TIMESTAMP_HEADER, readHeader } from "./headers.ts";
export type { WebhookHeaders, WebhookSignatureHeaders } from "./headers.ts";
export { createWebCryptoHmac, hmacSha256HexFrom, toHex, webCryptoHmacSha256Hex } from "./hmac.ts";
export type {
  CreateHmac,
  HmacSha256Hex,
  HmacSha256HexSync,
  HmacStream,
  WebCryptoHmacOptions,
} from "./hmac.ts";
export { signWebhook, signingText } from "./sign.ts";
export type { SignWebhookInput } from "./sign.ts";
export { DEFAULT_WEBHOOK_TOLERANCE_MS, verifyWebhook, verifyWebhookSync } from "./verify.ts";
export type {
  VerifyWebhookInput,
  VerifyWebhookOptions,
  VerifyWebhookSyncInput,
  WebhookRejected,
  WebhookVerification,
  WebhookVerified,
} from "./verify.ts";
