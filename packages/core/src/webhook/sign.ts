import { bodyView, signingMessage, type WebhookBody } from "./body.ts";
import { canonicalQuery, queryOf, type QueryReading } from "./canonical-query.ts";
import type { WebhookSignatureHeaders } from "./headers.ts";
import { webCryptoHmacSha256Hex, type HmacSha256Hex } from "./hmac.ts";

/**
 * Input of {@link signWebhook} (spec 4.8, 4.9).
 *
 * @example
 * ```ts
 * const input: SignWebhookInput = { secret, url: "https://r.example/hook?b=2&a=1", body: "{}" };
 * ```
 */
export interface SignWebhookInput {
  /** The account's webhook secret (spec 2.8). Must not be empty. */
  readonly secret: string;
  /** The callback URL the request goes to; its query is signed as given (spec 4.8). */
  readonly url: string | URL;
  /** The exact body that will be sent: bytes, or text (signed as its UTF-8 bytes). */
  readonly body: WebhookBody;
  /** Signing time in ms since the epoch; default `now()`. Must have 13 digits. */
  readonly timestamp?: number | undefined;
  /** Clock used when `timestamp` is absent; default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** How to read the query; default `"raw"`. See {@link QueryReading}. */
  readonly reading?: QueryReading | undefined;
  /** HMAC implementation; default {@link webCryptoHmacSha256Hex}. */
  readonly hmac?: HmacSha256Hex | undefined;
}

/**
 * The text that is signed (spec 4.9 step 4): timestamp, LF, signed query string, LF, raw body.
 *
 * @example
 * ```ts
 * signingText("1767225600000", "a=1&b=2", '{"x":1}'); // '1767225600000\na=1&b=2\n{"x":1}'
 * ```
 */
export function signingText(timestamp: string, canonical: string, body: string): string {
  return timestamp + "\n" + canonical + "\n" + body;
}

/**
 * Signs a webhook delivery as the platform does (spec 4.8, 4.9), for the emulator and for tests:
 * returns the `X-Sign-Timestamp` and `X-Signature` headers to send with `body` to `url`.
 *
 * @throws TypeError when `secret` is missing, empty or blank (the platform sends no callbacks then,
 *   spec 5.6), or
 *   RangeError when the timestamp is not a 13-digit integer.
 *
 * @example
 * ```ts
 * const headers = await signWebhook({
 *   secret: "s3cret",
 *   url: "https://receiver.example/hook?b=2&a=1",
 *   body: JSON.stringify(event),
 * });
 * await fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body });
 * ```
 */
export async function signWebhook(input: SignWebhookInput): Promise<WebhookSignatureHeaders> {
  assertSecret(input.secret);
  const time = input.timestamp ?? (input.now ?? Date.now)();
  if (!Number.isInteger(time) || time < 1e12 || time >= 1e13) {
    throw new RangeError(`webhook timestamp must be a 13-digit millisecond integer, got ${time}`);
  }
  const timestamp = String(time);
  const canonical = canonicalQuery(queryOf(input.url), { reading: input.reading ?? "raw" });
  const hmac = input.hmac ?? webCryptoHmacSha256Hex;
  const message = signingMessage(timestamp, canonical, bodyView(input.body));
  const signature = await hmac(input.secret, message);
  return { "X-Sign-Timestamp": timestamp, "X-Signature": signature };
}

/**
 * Rejects a secret that is not one: not a string (an unset environment variable is `undefined`),
 * empty, or only whitespace. WebCrypto cannot import an empty key, the platform never signs with
 * one (spec 5.6), and a receiver given none would refuse every delivery: a configuration error,
 * thrown where it is made.
 */
export function assertSecret(secret: unknown, name = "webhook secret"): asserts secret is string {
  if (typeof secret !== "string") {
    throw new TypeError(
      `${name} is ${secret === null ? "null" : typeof secret}, not a string: is the environment variable that holds it set? (spec 2.8)`,
    );
  }
  if (secret.trim() === "") {
    throw new TypeError(
      `${name} is ${secret === "" ? "empty" : "blank"}: the platform sends no callbacks until it is reset (spec 2.8, 5.6)`,
    );
  }
}
