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
 * ## Choices where the spec is silent
 *
 * - Query: taken from the URL string exactly as given (text after the first `?` up to `#`), never
 *   through `new URL().search`, which re-encodes. Pairs split on the first `=`; empty segments
 *   (`a=1&&b=2&`) are skipped; an empty key (`=v`) is kept and sorts first; `?` alone or no query
 *   is `""`.
 * - Sort order: key, then value, by Unicode code point (the order of the UTF-8 bytes), never by
 *   locale or UTF-16 code unit: `B` < `a`, `a-b` < `a_b`, `Z` < `é`, `｡` < `😀`.
 * - Body: the HMAC covers the bytes received (a `Uint8Array` or `ArrayBuffer`, or a string as its
 *   UTF-8 bytes). Decoding comes after verification, strictly: a leading byte-order mark is
 *   dropped, invalid UTF-8 is `WEBHOOK_BODY_NOT_UTF8` (never replaced by U+FFFD), and text that is
 *   not JSON is `WEBHOOK_BODY_NOT_JSON`. A body with a byte-order mark signed over its bytes is
 *   accepted; a byte-order mark added after signing is a mismatch.
 * - Three readings of escapes: `raw` (byte for byte) is tried first; `form-decoded` (`+` → space,
 *   `%XX` → bytes, as `URLSearchParams` does) only when the query contains `%` or `+`;
 *   `percent-decoded` (the same with `+` kept, as `decodeURIComponent` does) only when it contains
 *   both. The result says which matched. Callback URLs whose query uses only unreserved
 *   characters (`A–Z a–z 0–9 - . _ ~`) sign the same text in every reading.
 * - Timestamp: exactly 13 ASCII digits; a 10-digit value is rejected with a "seconds instead of
 *   milliseconds?" hint. Tolerance: 5 minutes by default, inclusive, in both directions, checked
 *   before the signature; `skewMs = timestamp − now`. `Infinity` disables it; a negative value
 *   throws.
 * - Signature: exactly 64 lowercase hex characters; uppercase hex is rejected (spec 4.8 says
 *   lowercase); the comparison is constant-time.
 * - Headers: names case-insensitive, values trimmed of spaces and tabs, repeated values joined with
 *   `", "`, an empty header counts as missing.
 * - Secrets: several are tried in order (rotation); none, an empty or a blank secret is a
 *   configuration error (a thrown `TypeError`: the platform never signs with an empty secret,
 *   spec 5.6); `formerSecrets` and `alternateUrls` only explain a mismatch, they never accept.
 * - Diagnoses: on a mismatch, `verifyWebhook` changes one thing at a time and reports each spec 7
 *   cause it can confirm, at most one per code: `FORMER_SECRET_MATCHES`, `SECRET_WHITESPACE`,
 *   `BODY_RESERIALISED` (compact, pretty-printed, Python-style, `\uXXXX` escapes, a trailing
 *   newline or a byte-order mark added or removed), `QUERY_UNSORTED_MATCHES`, `URL_MISMATCH`.
 *   Messages name secrets by position, never by value. `diagnose: false` turns this off (it costs
 *   up to a few dozen HMACs per failed request).
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
export type { HeaderRecord, WebhookHeaders, WebhookSignatureHeaders } from "./headers.ts";
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
