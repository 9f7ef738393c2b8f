import type { QueryReading } from "./canonical-query.ts";
import type { SignatureDiagnosis, WebhookFailureCode } from "./codes.ts";
import type { WebhookHeaders } from "./headers.ts";
import { constantTimeEqual } from "./compare.ts";
import {
  hmacSha256HexFrom,
  secretBytes,
  webCryptoHmacSha256Hex,
  type CreateHmac,
  type HmacSha256Hex,
  type HmacSha256HexSync,
} from "./hmac.ts";
import { runMaybeAsync, runSync, syncMac } from "./steps.ts";
import {
  afterFirstMismatch,
  firstSecret,
  prepareVerification,
  rawSigningText,
  verified,
  type PreparedVerification,
} from "./verify-steps.ts";

export { DEFAULT_WEBHOOK_TOLERANCE_MS } from "./verify-steps.ts";

/**
 * What {@link verifyWebhook} and {@link verifyWebhookSync} both take: the request as received
 * and the receiver's settings (spec 4.9, 5.7), everything but the HMAC implementation.
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
  /** The raw request body text, exactly as received, never parsed (spec 4.9 step 3). */
  readonly body: string;
  /** The URL the platform called; its query is signed as given (see `queryOf`). A Fetch
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
  /** Look for the cause of a mismatch (default `true`). It costs up to a few dozen HMACs per
   * failed request; turn it off where forged requests are frequent. */
  readonly diagnose?: boolean;
}

/**
 * Input of {@link verifyWebhook}: {@link VerifyWebhookOptions} and an optional HMAC (spec 4.9).
 *
 * @example
 * ```ts
 * const input: VerifyWebhookInput = { body, url, headers, secrets: secret }; // WebCrypto HMAC
 * ```
 */
export interface VerifyWebhookInput extends VerifyWebhookOptions {
  /** HMAC implementation, synchronous or not; default {@link webCryptoHmacSha256Hex}. */
  readonly hmac?: HmacSha256Hex;
}

/**
 * Input of {@link verifyWebhookSync}: {@link VerifyWebhookOptions} and one synchronous HMAC,
 * either `hmac`, a `(secret, message) => hex` function, or `createHmac`, `node:crypto`'s (or one
 * shaped like it), the fastest: it is fed the body without copying it into the signing text
 * (spec 4.9 steps 4-5).
 *
 * @example
 * ```ts
 * import { createHmac } from "node:crypto";
 * const fastest: VerifyWebhookSyncInput = { body, url, headers, secrets: secret, createHmac };
 * const plain: VerifyWebhookSyncInput = { body, url, headers, secrets: secret,
 *   hmac: (s, m) => createHmac("sha256", s).update(m).digest("hex") };
 * ```
 */
export type VerifyWebhookSyncInput = VerifyWebhookOptions &
  (
    | {
        /** Synchronous HMAC of the whole signing text. */
        readonly hmac: HmacSha256HexSync;
        readonly createHmac?: undefined;
      }
    | {
        /** An incremental HMAC constructor such as `node:crypto`'s `createHmac`. */
        readonly createHmac: CreateHmac;
        readonly hmac?: undefined;
      }
  );

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
 * Outcome of {@link verifyWebhook} and {@link verifyWebhookSync} (spec 4.9).
 *
 * @example
 * ```ts
 * const result: WebhookVerification = await verifyWebhook(input);
 * const status = result.ok ? 204 : 401;
 * ```
 */
export type WebhookVerification = WebhookVerified | WebhookRejected;

/**
 * Verifies a webhook delivery (spec 4.9, 5.7): both headers present, a 13-digit timestamp within
 * `toleranceMs` of now in either direction, then the HMAC-SHA256 of the signing text under each
 * secret, compared in constant time. The raw query reading is tried first (one HMAC in the common
 * case); the form-decoded reading is tried only when the query contains `%` or `+`. `X-Signature`
 * must be 64 lowercase hex characters: uppercase hex is rejected, as spec 4.8 says lowercase.
 * On a mismatch, `diagnoses` names the spec 7 cause when one can be confirmed.
 *
 * Runs synchronously for as long as `hmac` answers synchronously, so injecting `node:crypto`
 * costs no `await` per HMAC; {@link verifyWebhookSync} also drops the one promise left.
 *
 * @returns a promise of the outcome; it rejects with a TypeError when no secret is given or one
 *   is empty, and with a RangeError for a negative tolerance (configuration errors, not requests).
 *
 * @example
 * ```ts
 * const body = await c.req.text();
 * const result = await verifyWebhook({ body, url: c.req.url, headers: c.req.raw.headers, secrets: [secret] });
 * if (!result.ok) return c.json({ error: result.code, message: result.message }, 401);
 * ```
 */
export function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookVerification> {
  // The executor runs at once, so a synchronous hmac costs no await; a configuration error
  // thrown in it rejects the promise instead of throwing at the call site.
  return new Promise((resolve) => {
    resolve(verifyMaybeAsync(input));
  });
}

function verifyMaybeAsync(
  input: VerifyWebhookInput,
): WebhookVerification | Promise<WebhookVerification> {
  const prepared = prepareVerification(input);
  if (prepared.ok === false) return prepared;
  const hmac = input.hmac ?? webCryptoHmacSha256Hex;
  const mac = hmac(firstSecret(prepared), rawSigningText(prepared));
  return typeof mac === "string"
    ? afterFirstHmac(prepared, mac, hmac)
    : mac.then((hex) => afterFirstHmac(prepared, hex, hmac));
}

function afterFirstHmac(
  prepared: PreparedVerification,
  mac: string,
  hmac: HmacSha256Hex,
): WebhookVerification | Promise<WebhookVerification> {
  if (constantTimeEqual(mac, prepared.signature)) return verified(prepared, 0, "raw");
  return runMaybeAsync(afterFirstMismatch(prepared), hmac);
}

/**
 * {@link verifyWebhook} with a synchronous HMAC, returning the outcome directly: the fastest way
 * to verify on a server, e.g. with `node:crypto` (spec 4.9, 5.7). Same checks, same order, same
 * outcome and diagnostics (computed synchronously too); only the HMAC must answer at once.
 *
 * @throws TypeError when no secret is given, one is empty, or `hmac` returns anything but a
 *   string; RangeError for a negative tolerance.
 *
 * @example
 * ```ts
 * import { createHmac } from "node:crypto";
 * const hmac = (secret: string, text: string) =>
 *   createHmac("sha256", secret).update(text).digest("hex");
 * const result = verifyWebhookSync({ body: rawBody, url: req.url, headers: req.headers, secrets, hmac });
 * if (!result.ok) return res.writeHead(401).end(result.code);
 * ```
 */
export function verifyWebhookSync(input: VerifyWebhookSyncInput): WebhookVerification {
  const prepared = prepareVerification(input);
  if (prepared.ok === false) return prepared;
  // The hot path: the one HMAC of the common case, with no generator and no promise.
  const secret = firstSecret(prepared);
  const mac =
    input.createHmac === undefined
      ? input.hmac(secret, rawSigningText(prepared))
      : input
          .createHmac("sha256", secretBytes(secret))
          .update(prepared.head)
          .update(input.body)
          .digest("hex");
  if (constantTimeEqual(syncMac(mac), prepared.signature)) return verified(prepared, 0, "raw");
  const hmac = input.createHmac === undefined ? input.hmac : hmacSha256HexFrom(input.createHmac);
  return runSync(afterFirstMismatch(prepared), hmac);
}
