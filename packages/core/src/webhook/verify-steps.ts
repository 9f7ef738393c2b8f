import { canonicalQuery, queryOf, type QueryReading } from "./canonical-query.ts";
import {
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  type WebhookFailureCode,
} from "./codes.ts";
import { constantTimeEqual, isLowerHexSignature, parseTimestamp13 } from "./compare.ts";
import { diagnoseMismatch } from "./diagnose.ts";
import { SIGNATURE_HEADER, SIGN_TIMESTAMP_HEADER, readHeaderNamed } from "./headers.ts";
import { describeSignatureShape, describeTimestamp, mismatchMessage } from "./messages.ts";
import { assertSecret, signingText } from "./sign.ts";
import type { HmacRequest, HmacSteps } from "./steps.ts";
import type {
  VerifyWebhookOptions,
  WebhookRejected,
  WebhookVerification,
  WebhookVerified,
} from "./verify.ts";

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

const FORM_DECODED = { reading: "form-decoded" } as const;

/**
 * A request that passed the header and timestamp checks (spec 4.9 steps 1-4, 5.7), ready for the
 * HMACs: the hot path needs nothing else. `ok` is absent, which tells it from a rejection.
 */
export interface PreparedVerification {
  readonly ok?: undefined;
  readonly input: VerifyWebhookOptions;
  readonly secrets: string | readonly string[];
  readonly count: number;
  readonly timestamp: string;
  readonly time: number;
  readonly signature: string;
  readonly query: string;
  readonly raw: string;
  /** Timestamp, LF, raw canonical query, LF: the raw reading's signing text before the body. */
  readonly head: string;
}

/**
 * Checks the configuration (throws on an error), reads the two headers once, checks and parses
 * the timestamp in one pass, and builds the head of the raw reading's signing text: the
 * canonical query is the query itself, unallocated, when it is already sorted, and is reused for
 * the URL seen last. Returns a rejection for a missing header, a malformed timestamp or one out
 * of range.
 */
export function prepareVerification(
  input: VerifyWebhookOptions,
): PreparedVerification | WebhookRejected {
  const { secrets } = input;
  const count = checkSecrets(secrets);
  const tolerance = input.toleranceMs ?? DEFAULT_WEBHOOK_TOLERANCE_MS;
  if (!(tolerance >= 0)) throw new RangeError(`toleranceMs must be >= 0, got ${tolerance}`);

  const timestamp = readHeaderNamed(input.headers, SIGN_TIMESTAMP_HEADER, "x-sign-timestamp");
  const signature = readHeaderNamed(input.headers, SIGNATURE_HEADER, "x-signature");
  if (!timestamp || !signature) return missingHeaders(!timestamp, !signature);
  const time = parseTimestamp13(timestamp);
  if (time === -1) return reject(WEBHOOK_MALFORMED_TIMESTAMP, describeTimestamp(timestamp));
  const skewMs = time - (input.now ?? Date.now)();
  if (skewMs > tolerance || skewMs < -tolerance) {
    const when = skewMs < 0 ? "old" : "in the future";
    const message = `${SIGN_TIMESTAMP_HEADER} is ${Math.abs(skewMs)} ms ${when}, beyond the tolerance of ${tolerance} ms (spec 5.7)`;
    return reject(WEBHOOK_TIMESTAMP_OUT_OF_RANGE, message, { skewMs });
  }
  const { query, raw, tail } = signedQueryOf(input.url);
  const head = timestamp + tail;
  return { input, secrets, count, timestamp, time, signature, query, raw, head };
}

/**
 * The raw reading's signing text (spec 4.9 step 4), the one signed in the common case: one
 * concatenation, made only for an HMAC that takes the text whole.
 */
export function rawSigningText(prepared: PreparedVerification): string {
  return prepared.head + prepared.input.body;
}

/** The first secret, whose HMAC of the raw signing text the hot path computes. */
export function firstSecret(prepared: PreparedVerification): string {
  return typeof prepared.secrets === "string" ? prepared.secrets : (prepared.secrets[0] ?? "");
}

/** The outcome when `secrets[secretIndex]` matched under `reading`. */
export function verified(
  prepared: PreparedVerification,
  secretIndex: number,
  reading: QueryReading,
): WebhookVerified {
  return { ok: true, timestamp: prepared.time, secretIndex, reading };
}

/**
 * The verification after its first HMAC (the first secret on the raw reading, which the hot
 * path computes inline) missed: the other secrets, then the form-decoded reading, only when the
 * query has `%` or `+`, then, once every candidate failed, the `X-Signature` shape and the
 * diagnostics. Written once as a generator that yields each HMAC it needs, so the synchronous
 * and asynchronous verifiers share it (see `steps.ts`).
 */
export function* afterFirstMismatch(
  prepared: PreparedVerification,
): HmacSteps<WebhookVerification> {
  const { input, secrets, count, timestamp, signature, query, raw } = prepared;
  const rawIndex = yield* matchingSecret(secrets, 1, count, rawSigningText(prepared), signature);
  if (rawIndex !== -1) return verified(prepared, rawIndex, "raw");
  if (query.includes("%") || query.includes("+")) {
    const decoded = canonicalQuery(query, FORM_DECODED);
    if (decoded !== raw) {
      const text = signingText(timestamp, decoded, input.body);
      const index = yield* matchingSecret(secrets, 0, count, text, signature);
      if (index !== -1) return verified(prepared, index, "form-decoded");
    }
  }

  // A computed signature is lowercase hex, so only a well-formed header could have matched.
  if (!isLowerHexSignature(signature)) {
    return reject(WEBHOOK_SIGNATURE_MISMATCH, describeSignatureShape(signature));
  }
  const diagnoses =
    input.diagnose === false
      ? []
      : yield* diagnoseMismatch({
          timestamp,
          signature,
          body: input.body,
          query,
          secrets: typeof secrets === "string" ? [secrets] : secrets,
          formerSecrets: input.formerSecrets ?? [],
          alternateUrls: input.alternateUrls ?? [],
        });
  const message = mismatchMessage(count, diagnoses);
  return reject(WEBHOOK_SIGNATURE_MISMATCH, message, diagnoses.length > 0 ? { diagnoses } : {});
}

/** Index of the first secret from `start` whose HMAC of `text` equals `signature`, or -1. */
function* matchingSecret(
  secrets: string | readonly string[],
  start: number,
  count: number,
  text: string,
  signature: string,
): HmacSteps<number> {
  for (let i = start; i < count; i++) {
    const secret = typeof secrets === "string" ? secrets : (secrets[i] ?? "");
    const request: HmacRequest = [secret, text];
    if (constantTimeEqual(yield request, signature)) return i;
  }
  return -1;
}

// A receiver is called at the same address again and again: the last URL's signed query is kept
// (one entry, no secret in it), so the common case compares one string instead of re-sorting.
let lastUrl = "";
let lastSigned: SignedQuery = { query: "", raw: "", tail: "\n\n" };

/** The query of a URL as given, its canonical raw reading, and the signing text around it. */
interface SignedQuery {
  readonly query: string;
  /** The signed query string in the raw reading (spec 4.9 rules 1-6). */
  readonly raw: string;
  /** LF, `raw`, LF: the signing text between the timestamp and the body (spec 4.9 step 4). */
  readonly tail: string;
}

function signedQueryOf(url: string | URL): SignedQuery {
  if (url === lastUrl) return lastSigned;
  const query = queryOf(url);
  const raw = canonicalQuery(query);
  const signed = { query, raw, tail: "\n" + raw + "\n" };
  if (typeof url === "string") {
    lastUrl = url;
    lastSigned = signed;
  }
  return signed;
}

/** Number of secrets; throws when there is none or one is empty (a configuration error). */
function checkSecrets(secrets: string | readonly string[]): number {
  if (typeof secrets === "string") {
    assertSecret(secrets);
    return 1;
  }
  if (secrets.length === 0) throw new TypeError("verifyWebhook needs at least one secret");
  for (const secret of secrets) assertSecret(secret);
  return secrets.length;
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
