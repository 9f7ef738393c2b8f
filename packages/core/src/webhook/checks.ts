import { bodyView } from "./body.ts";
import { canonicalQuery, type QueryReading } from "./canonical-query.ts";
import {
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  type SignatureDiagnosis,
  type WebhookFailureCode,
} from "./codes.ts";
import { isLowerHexSignature, parseTimestamp13 } from "./compare.ts";
import { SIGNATURE_HEADER, SIGN_TIMESTAMP_HEADER, readHeader } from "./headers.ts";
import { describeSignatureShape, describeTimestamp, mismatchMessage } from "./messages.ts";
import { assertSecret } from "./sign.ts";
import type { VerifyWebhookOptions, WebhookRejected, WebhookVerified } from "./types.ts";

// The steps every verifier shares, before and after its HMACs: configuration, headers and
// timestamp first (spec 4.9 step 1, 5.7), the readings to sign, then the outcome.

/**
 * Default accepted distance between `X-Sign-Timestamp` and now: 5 minutes, in both directions
 * (spec 5.7 recommends checking the age; the window is the receiver's choice, spec 8).
 *
 * @example
 * ```ts
 * verifyWebhook({ ...request, secrets, toleranceMs: DEFAULT_WEBHOOK_TOLERANCE_MS / 5 }); // 1 min
 * ```
 */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 300_000;

/** A delivery whose headers and timestamp passed: what the HMACs need. */
export interface CheckedDelivery {
  /** Absent, which tells a checked delivery from a {@link WebhookRejected}. */
  readonly ok?: undefined;
  readonly secrets: readonly string[];
  /** `X-Sign-Timestamp` as received: the first line of the signing text. */
  readonly timestamp: string;
  /** The same, in ms since the epoch. */
  readonly time: number;
  /** `X-Signature` as received. */
  readonly signature: string;
  /** The body as received: text, or a view of its bytes. */
  readonly body: string | Uint8Array;
}

/**
 * Checks the configuration (throws on an error: no secret, an empty one, a negative tolerance),
 * then both headers and the timestamp window. Returns the rejection of a missing header, a
 * malformed timestamp or one out of range.
 */
export function checkDelivery(input: VerifyWebhookOptions): CheckedDelivery | WebhookRejected {
  const secrets = secretList(input.secrets);
  const tolerance = input.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS;
  if (!(tolerance >= 0)) throw new RangeError(`toleranceMs must be >= 0, got ${tolerance}`);

  // Lowercase names: as Node gives them, found by the first lookup, with nothing to lowercase.
  const timestamp = readHeader(input.headers, "x-sign-timestamp");
  const signature = readHeader(input.headers, "x-signature");
  if (!timestamp || !signature) return missingHeaders(!timestamp, !signature);
  const time = parseTimestamp13(timestamp);
  if (time === -1) return reject(WEBHOOK_MALFORMED_TIMESTAMP, describeTimestamp(timestamp));
  const skewMs = time - (input.now ?? Date.now)();
  if (skewMs > tolerance || skewMs < -tolerance) {
    const when = skewMs < 0 ? "old" : "in the future";
    const message = `${SIGN_TIMESTAMP_HEADER} is ${Math.abs(skewMs)} ms ${when}, beyond the tolerance of ${tolerance} ms (spec 5.7)`;
    return reject(WEBHOOK_TIMESTAMP_OUT_OF_RANGE, message, { skewMs });
  }
  return { secrets, timestamp, time, signature, body: bodyView(input.body) };
}

/**
 * The secrets as a list, each checked (see `assertSecret`): throws a TypeError when there is
 * none, or one is missing, empty or blank. Typed `unknown` because JavaScript callers (and
 * `process.env`) can hand over anything.
 */
export function secretList(secrets: unknown, name = "secrets"): readonly string[] {
  const list: readonly unknown[] = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) {
    throw new TypeError(`${name} is an empty list: a webhook receiver needs at least one secret`);
  }
  for (let i = 0; i < list.length; i++) {
    assertSecret(list[i], Array.isArray(secrets) ? `${name}[${i}]` : name);
  }
  return list as readonly string[];
}

/** One reading of the query and its signed query string. */
export interface SignedReading {
  readonly reading: QueryReading;
  readonly canonical: string;
}

/**
 * The readings to try, in order: the raw one; the form-decoded one when the query has `%` or `+`
 * (only those decode); the percent-decoded one when it has both (with only one of them it equals
 * the raw or the form-decoded one). A reading is tried only when it changes the signed string
 * (spec 4.9 leaves percent-encoding open). `raw` may be passed when the caller has it already.
 */
export function signedReadings(query: string, raw = canonicalQuery(query)): SignedReading[] {
  const readings: SignedReading[] = [{ reading: "raw", canonical: raw }];
  const percent = query.includes("%");
  const plus = query.includes("+");
  if (!percent && !plus) return readings;
  const decoded = canonicalQuery(query, { reading: "form-decoded" });
  if (decoded !== raw) readings.push({ reading: "form-decoded", canonical: decoded });
  if (percent && plus) {
    const kept = canonicalQuery(query, { reading: "percent-decoded" });
    if (kept !== raw && kept !== decoded)
      readings.push({ reading: "percent-decoded", canonical: kept });
  }
  return readings;
}

/** The outcome when `secrets[secretIndex]` matched under `reading`. */
export function verified(
  checked: CheckedDelivery,
  secretIndex: number,
  reading: QueryReading,
): WebhookVerified {
  return { ok: true, timestamp: checked.time, secretIndex, reading };
}

/**
 * The rejection of an `X-Signature` that is not 64 lowercase hex characters, or `undefined` when
 * it has that shape. Checked after the HMACs: a computed signature is lowercase hex, so only a
 * well-formed header could have matched, and the shape only explains a failure.
 */
export function malformedSignature(signature: string): WebhookRejected | undefined {
  return isLowerHexSignature(signature)
    ? undefined
    : reject(WEBHOOK_SIGNATURE_MISMATCH, describeSignatureShape(signature));
}

/** The rejection of a well-formed signature that no secret matched, with the causes found. */
export function mismatch(
  secretCount: number,
  diagnoses: readonly SignatureDiagnosis[],
): WebhookRejected {
  const message = mismatchMessage(secretCount, diagnoses);
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
