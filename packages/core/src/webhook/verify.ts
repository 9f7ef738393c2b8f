import { canonicalQuery, queryOf, type QueryReading } from "./canonical-query.ts";
import {
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  type SignatureDiagnosis,
  type WebhookFailureCode,
} from "./codes.ts";
import { constantTimeEqual, isLowerHexSignature, isTimestamp13 } from "./compare.ts";
import { diagnoseMismatch } from "./diagnose.ts";
import {
  SIGNATURE_HEADER,
  SIGN_TIMESTAMP_HEADER,
  readHeaderNamed,
  type WebhookHeaders,
} from "./headers.ts";
import { webCryptoHmacSha256Hex, type HmacSha256Hex } from "./hmac.ts";
import { assertSecret, signingText } from "./sign.ts";
import { describeSignatureShape, describeTimestamp, mismatchMessage } from "./messages.ts";

/**
 * Default accepted distance between `X-Sign-Timestamp` and now: 5 minutes, in both directions
 * (spec 5.7 recommends checking the age; the window is the receiver's choice, spec 8).
 */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 300_000;

/** Input of {@link verifyWebhook}. */
export interface VerifyWebhookInput {
  /** The raw request body text, exactly as received, never parsed (spec 4.9 step 3). */
  readonly body: string;
  /** The URL the platform called; its query is signed as given (see {@link queryOf}). A Fetch
   * `request.url` has been through the URL parser, which percent-encodes spaces, quotes and
   * non-ASCII in the query; that equals what was sent whenever the request line was valid. */
  readonly url: string | URL;
  /** The request headers; names are matched case-insensitively. */
  readonly headers: WebhookHeaders;
  /** The current secret, or several during a rotation (tried in order). None may be empty. */
  readonly secrets: string | readonly string[];
  /** Secrets no longer accepted; only used to explain a mismatch (`FORMER_SECRET_MATCHES`). */
  readonly formerSecrets?: readonly string[];
  /** Other URLs the platform may have called (e.g. the public URL in front of a proxy); only
   * used to explain a mismatch (`URL_MISMATCH`). */
  readonly alternateUrls?: readonly (string | URL)[];
  /** Clock in ms since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** Accepted |timestamp − now| in ms, inclusive; default {@link DEFAULT_WEBHOOK_TOLERANCE_MS}.
   * `Infinity` turns the replay check off, which spec 5.7 advises against. */
  readonly toleranceMs?: number;
  /** HMAC implementation; default {@link webCryptoHmacSha256Hex}. */
  readonly hmac?: HmacSha256Hex;
  /** Look for the cause of a mismatch (default `true`). It costs up to a few dozen HMACs per
   * failed request; turn it off where forged requests are frequent. */
  readonly diagnose?: boolean;
}

/** A verified delivery. */
export interface WebhookVerified {
  readonly ok: true;
  /** The signed `X-Sign-Timestamp`, in ms since the epoch. */
  readonly timestamp: number;
  /** Index in `secrets` of the secret that matched. */
  readonly secretIndex: number;
  /** The query reading that matched. */
  readonly reading: QueryReading;
}

/** A delivery that failed verification; answer it with 401 and do not process it. */
export interface WebhookRejected {
  readonly ok: false;
  readonly code: WebhookFailureCode;
  /** Human-readable reason; never contains a secret or a computed signature. */
  readonly message: string;
  /** `WEBHOOK_MISSING_HEADER`: the first missing header. */
  readonly header?: string;
  /** `WEBHOOK_TIMESTAMP_OUT_OF_RANGE`: timestamp − now in ms (negative: stale, positive: future). */
  readonly skewMs?: number;
  /** `WEBHOOK_SIGNATURE_MISMATCH`: confirmed causes, when any was found. */
  readonly diagnoses?: readonly SignatureDiagnosis[];
}

/** Outcome of {@link verifyWebhook}. */
export type WebhookVerification = WebhookVerified | WebhookRejected;

/**
 * Verifies a webhook delivery (spec 4.9, 5.7): both headers present, a 13-digit timestamp within
 * `toleranceMs` of now in either direction, then the HMAC-SHA256 of the signing text under each
 * secret, compared in constant time. The raw query reading is tried first (one HMAC in the common
 * case); the form-decoded reading is tried only when the query contains `%` or `+`. `X-Signature`
 * must be 64 lowercase hex characters: uppercase hex is rejected, as spec 4.8 says lowercase.
 *
 * @throws TypeError when no secret is given or one is empty; RangeError for a negative tolerance.
 *
 * @example
 * ```ts
 * const body = await c.req.text();
 * const result = await verifyWebhook({ body, url: c.req.url, headers: c.req.raw.headers, secrets: [secret] });
 * if (!result.ok) return c.json({ error: result.code, message: result.message }, 401);
 * ```
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookVerification> {
  const { body } = input;
  const secrets = typeof input.secrets === "string" ? [input.secrets] : input.secrets;
  if (secrets.length === 0) throw new TypeError("verifyWebhook needs at least one secret");
  for (const secret of secrets) assertSecret(secret);
  const tolerance = input.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS;
  if (!(tolerance >= 0)) throw new RangeError(`toleranceMs must be >= 0, got ${tolerance}`);

  const timestamp = readHeaderNamed(input.headers, SIGN_TIMESTAMP_HEADER, "x-sign-timestamp");
  const signature = readHeaderNamed(input.headers, SIGNATURE_HEADER, "x-signature");
  if (!timestamp || !signature) return missingHeaders(!timestamp, !signature);
  if (!isTimestamp13(timestamp)) {
    return reject(WEBHOOK_MALFORMED_TIMESTAMP, describeTimestamp(timestamp));
  }
  const time = Number(timestamp);
  const skewMs = time - (input.now ?? Date.now)();
  if (skewMs > tolerance || skewMs < -tolerance) {
    const when = skewMs < 0 ? "old" : "in the future";
    const message = `${SIGN_TIMESTAMP_HEADER} is ${Math.abs(skewMs)} ms ${when}, beyond the tolerance of ${tolerance} ms (spec 5.7)`;
    return reject(WEBHOOK_TIMESTAMP_OUT_OF_RANGE, message, { skewMs });
  }
  // The hot path: one canonical query, one signing text, one HMAC per secret, inline (no helper
  // coroutine), awaiting only an asynchronous hmac. The X-Signature shape is checked after a
  // mismatch: a computed signature is lowercase hex, so only a well-formed header can equal it.
  const hmac = input.hmac ?? webCryptoHmacSha256Hex;
  const query = queryOf(input.url);
  const raw = canonicalQuery(query);
  let canonical = raw;
  let reading: QueryReading = "raw";
  for (;;) {
    const text = signingText(timestamp, canonical, body);
    for (let i = 0; i < secrets.length; i++) {
      const result = hmac(secrets[i] ?? "", text);
      const computed = typeof result === "string" ? result : await result;
      if (constantTimeEqual(computed, signature)) {
        return { ok: true, timestamp: time, secretIndex: i, reading };
      }
    }
    if (reading !== "raw" || !(query.includes("%") || query.includes("+"))) break;
    canonical = canonicalQuery(query, { reading: "form-decoded" });
    if (canonical === raw) break;
    reading = "form-decoded";
  }

  if (!isLowerHexSignature(signature)) {
    return reject(WEBHOOK_SIGNATURE_MISMATCH, describeSignatureShape(signature));
  }
  const diagnoses =
    input.diagnose === false
      ? []
      : await diagnoseMismatch({
          timestamp,
          signature,
          body,
          query,
          secrets,
          formerSecrets: input.formerSecrets ?? [],
          alternateUrls: input.alternateUrls ?? [],
          hmac,
        });
  const message = mismatchMessage(secrets.length, diagnoses);
  return reject(WEBHOOK_SIGNATURE_MISMATCH, message, diagnoses.length > 0 ? { diagnoses } : {});
}

function missingHeaders(timestamp: boolean, signature: boolean): WebhookRejected {
  const names = [timestamp ? SIGN_TIMESTAMP_HEADER : "", signature ? SIGNATURE_HEADER : ""];
  const missing = names.filter(Boolean);
  const header = missing[0] ?? SIGN_TIMESTAMP_HEADER;
  return reject(WEBHOOK_MISSING_HEADER, `missing or empty header ${missing.join(" and ")}`, {
    header,
  });
}

function reject(
  code: WebhookFailureCode,
  message: string,
  extra: Pick<WebhookRejected, "header" | "skewMs" | "diagnoses"> = {},
): WebhookRejected {
  return { ok: false, code, message, ...extra };
}
