/**
 * `X-Sign-Timestamp` or `X-Signature` is absent or empty; `header` names the first one missing
 * (spec 4.8 lists both headers on every delivery).
 *
 * @example
 * ```ts
 * if (!result.ok && result.code === WEBHOOK_MISSING_HEADER) log.warn(`no ${result.header}`);
 * ```
 */
export const WEBHOOK_MISSING_HEADER = "WEBHOOK_MISSING_HEADER";

/**
 * `X-Sign-Timestamp` is not exactly 13 ASCII digits (milliseconds, spec 4.8).
 *
 * @example
 * ```ts
 * if (!result.ok && result.code === WEBHOOK_MALFORMED_TIMESTAMP) return c.text(result.message, 401);
 * ```
 */
export const WEBHOOK_MALFORMED_TIMESTAMP = "WEBHOOK_MALFORMED_TIMESTAMP";

/**
 * `X-Sign-Timestamp` is further from now than the tolerance, in either direction (spec 5.7);
 * `skewMs` says by how much.
 *
 * @example
 * ```ts
 * if (!result.ok && result.code === WEBHOOK_TIMESTAMP_OUT_OF_RANGE) log.warn({ skewMs: result.skewMs });
 * ```
 */
export const WEBHOOK_TIMESTAMP_OUT_OF_RANGE = "WEBHOOK_TIMESTAMP_OUT_OF_RANGE";

/**
 * `X-Signature` is not 64 lowercase hex characters, or matches no secret (spec 4.9, 7);
 * `diagnoses` names the cause when one is confirmed.
 *
 * @example
 * ```ts
 * if (!result.ok && result.code === WEBHOOK_SIGNATURE_MISMATCH) log.warn(result.diagnoses);
 * ```
 */
export const WEBHOOK_SIGNATURE_MISMATCH = "WEBHOOK_SIGNATURE_MISMATCH";

/**
 * Every stable failure code of `verifyWebhook`, in the order the checks run (spec 4.8, 4.9, 5.7).
 *
 * @example
 * ```ts
 * WEBHOOK_FAILURE_CODES.includes(result.code); // true for any failed verification
 * ```
 */
export const WEBHOOK_FAILURE_CODES = [
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  WEBHOOK_SIGNATURE_MISMATCH,
] as const;

/**
 * Why a webhook failed verification (spec 4.9, 5.7, 7).
 *
 * @example
 * ```ts
 * const counts: Partial<Record<WebhookFailureCode, number>> = {};
 * ```
 */
export type WebhookFailureCode = (typeof WEBHOOK_FAILURE_CODES)[number];

/**
 * Causes of a signature mismatch that `verifyWebhook` can confirm by changing one thing and
 * finding a match (the common causes of spec 7):
 *
 * - `FORMER_SECRET_MATCHES`: one of `formerSecrets` matches (outdated secret, spec 5.8).
 * - `BODY_RESERIALISED`: a re-serialised form of the JSON body, or the body with a trailing
 *   newline added or removed, matches (a parsed instead of raw body).
 * - `QUERY_UNSORTED_MATCHES`: the query as given (unsorted), or sorted by locale, matches.
 * - `URL_MISMATCH`: one of `alternateUrls`, or the URL without its query, matches.
 * - `SECRET_WHITESPACE`: a secret has surrounding whitespace and the trimmed secret matches.
 *
 * @example
 * ```ts
 * SIGNATURE_DIAGNOSIS_CODES.includes(diagnosis.code); // true
 * ```
 */
export const SIGNATURE_DIAGNOSIS_CODES = [
  "FORMER_SECRET_MATCHES",
  "BODY_RESERIALISED",
  "QUERY_UNSORTED_MATCHES",
  "URL_MISMATCH",
  "SECRET_WHITESPACE",
] as const;

/**
 * One of {@link SIGNATURE_DIAGNOSIS_CODES}: a confirmed spec 7 cause of a mismatch.
 *
 * @example
 * ```ts
 * const outdated: SignatureDiagnosisCode = "FORMER_SECRET_MATCHES";
 * ```
 */
export type SignatureDiagnosisCode = (typeof SIGNATURE_DIAGNOSIS_CODES)[number];

/**
 * A confirmed cause of a signature mismatch (spec 7). Never contains a secret or a computed
 * signature: secrets are named by position (`formerSecrets[1]`).
 *
 * @example
 * ```ts
 * for (const { code, message } of result.diagnoses ?? []) log.warn({ code }, message);
 * ```
 */
export interface SignatureDiagnosis {
  readonly code: SignatureDiagnosisCode;
  readonly message: string;
}

/**
 * A correctly signed body is not valid UTF-8, so it cannot be the JSON event of spec 2.7 (the
 * signature covers bytes, spec 4.9 step 3; the text is decoded afterwards, strictly). Answer 400:
 * a retry sends the same bytes.
 *
 * @example
 * ```ts
 * if (!body.ok && body.code === WEBHOOK_BODY_NOT_UTF8) return c.json({ error: body.code }, 400);
 * ```
 */
export const WEBHOOK_BODY_NOT_UTF8 = "WEBHOOK_BODY_NOT_UTF8";

/**
 * A correctly signed body is UTF-8 text but not JSON (spec 4.8: `Content-Type: application/json`,
 * body of spec 2.7). Answer 400: a retry sends the same bytes.
 *
 * @example
 * ```ts
 * if (!body.ok && body.code === WEBHOOK_BODY_NOT_JSON) return c.json({ error: body.code }, 400);
 * ```
 */
export const WEBHOOK_BODY_NOT_JSON = "WEBHOOK_BODY_NOT_JSON";

/**
 * Every stable failure code of `readWebhookBody`, in the order it checks.
 *
 * @example
 * ```ts
 * WEBHOOK_BODY_CODES.includes(reading.code); // true for any body that could not be read
 * ```
 */
export const WEBHOOK_BODY_CODES = [WEBHOOK_BODY_NOT_UTF8, WEBHOOK_BODY_NOT_JSON] as const;

/**
 * Why a verified body could not be read as the JSON event (spec 2.7, 4.8).
 *
 * @example
 * ```ts
 * const code: WebhookBodyCode = "WEBHOOK_BODY_NOT_JSON";
 * ```
 */
export type WebhookBodyCode = (typeof WEBHOOK_BODY_CODES)[number];
