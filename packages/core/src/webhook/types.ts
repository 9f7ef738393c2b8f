import type { WebhookBody } from "./body.ts";
import type { QueryReading } from "./canonical-query.ts";
import type { SignatureDiagnosis, WebhookFailureCode } from "./codes.ts";
import type { WebhookHeaders } from "./headers.ts";
import type { HmacSha256Hex } from "./hmac.ts";

/**
 * What `verifyWebhook` and `verifyWebhookSync` both take: the request as received and the
 * receiver's settings (spec 4.9, 5.7), everything but the HMAC implementation.
 *
 * @example
 * ```ts
 * const options: VerifyWebhookOptions = {
 *   body: rawBody, url: "https://overture.example/webhooks/platform?k=abc",
 *   headers: req.headers, secrets: [currentSecret], formerSecrets: [previousSecret],
 * };
 * ```
 */
export interface VerifyWebhookOptions {
  /** The raw request body exactly as received, never parsed (spec 4.9 step 3): best its bytes
   * (`Uint8Array`, `Buffer`, `ArrayBuffer`); text only if decoding changed nothing. */
  readonly body: WebhookBody;
  /** The URL the platform called; its query is signed as given (see `queryOf`). A Fetch
   * `request.url` has been through the URL parser, which percent-encodes spaces, quotes and
   * non-ASCII in the query; that equals what was sent whenever the request line was valid. */
  readonly url: string | URL;
  /** The request headers; names are matched case-insensitively. */
  readonly headers: WebhookHeaders;
  /** The current secret, or several during a rotation (tried in order). None may be missing,
   * empty or blank: that throws a TypeError (a configuration error, not a request's). */
  readonly secrets: string | readonly string[];
  /** Secrets no longer accepted; only used to explain a mismatch (`FORMER_SECRET_MATCHES`).
   * Unset ones (`undefined`, empty: an environment variable not set) are skipped. */
  readonly formerSecrets?: readonly (string | undefined)[] | undefined;
  /** Other URLs the platform may have called (e.g. the public URL in front of a proxy); only
   * used to explain a mismatch (`URL_MISMATCH`). */
  readonly alternateUrls?: readonly (string | URL)[] | undefined;
  /** Clock in ms since the epoch; default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Accepted |timestamp − now| in ms, inclusive; default `DEFAULT_WEBHOOK_TOLERANCE_MS`.
   * `Infinity` turns the replay check off, which spec 5.7 advises against. */
  readonly toleranceMs?: number | undefined;
  /** Look for the cause of a mismatch (default `true`). It costs up to a few dozen HMACs per
   * failed request; turn it off where forged requests are frequent. */
  readonly diagnose?: boolean | undefined;
}

/**
 * Input of `verifyWebhook`: {@link VerifyWebhookOptions} and an optional HMAC (spec 4.9).
 *
 * @example
 * ```ts
 * const input: VerifyWebhookInput = { body, url, headers, secrets: secret }; // WebCrypto HMAC
 * ```
 */
export interface VerifyWebhookInput extends VerifyWebhookOptions {
  /** HMAC implementation, synchronous or not; default `webCryptoHmacSha256Hex`. */
  readonly hmac?: HmacSha256Hex | undefined;
}

/**
 * A verified delivery (spec 4.9 step 6: the signature matched).
 *
 * @example
 * ```ts
 * if (result.ok) log.info({ signedAt: result.timestamp, secret: result.secretIndex });
 * ```
 */
export interface WebhookVerified {
  readonly ok: true;
  /** The signed `X-Sign-Timestamp`, in ms since the epoch. */
  readonly timestamp: number;
  /** Index in `secrets` of the secret that matched. */
  readonly secretIndex: number;
  /** The query reading that matched. */
  readonly reading: QueryReading;
}

/**
 * A delivery that failed verification (spec 4.9, 5.7, 7); answer it with 401 and do not
 * process it.
 *
 * @example
 * ```ts
 * if (!result.ok) return c.json({ error: result.code, message: result.message }, 401);
 * ```
 */
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

/**
 * Outcome of `verifyWebhook` and `verifyWebhookSync` (spec 4.9).
 *
 * @example
 * ```ts
 * const result: WebhookVerification = await verifyWebhook(input);
 * const status = result.ok ? 204 : 401;
 * ```
 */
export type WebhookVerification = WebhookVerified | WebhookRejected;
