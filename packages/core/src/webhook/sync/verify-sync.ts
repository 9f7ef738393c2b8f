import { signingMessage } from "../body.ts";
import { canonicalQuery, queryOf } from "../canonical-query.ts";
import {
  checkDelivery,
  type CheckedDelivery,
  malformedSignature,
  mismatch,
  signedReadings,
  verified,
} from "../checks.ts";
import { constantTimeEqual, constantTimeEqualHex } from "../compare.ts";
import { diagnoseMismatchSync, mismatchContext } from "../diagnose/diagnose.ts";
import type { HmacSha256HexSync } from "../hmac.ts";
import type { VerifyWebhookOptions, WebhookVerification } from "../types.ts";
import { hmacSha256HexFrom, secretBytes, type CreateHmac } from "./create-hmac.ts";
import { hmacSha256Binary, hmacSha256HexFromHash, type HashSha256 } from "./one-shot-hash.ts";

/**
 * Input of {@link verifyWebhookSync}: `VerifyWebhookOptions` and one synchronous HMAC: `hmac`, a
 * `(secret, message) => hex` function; `createHmac`, `node:crypto`'s (or one shaped like it),
 * fed a byte body without copying it into the signing text; or `hash`, `node:crypto`'s one-shot
 * `hash` (Node ≥ 20.12), on which core builds the HMAC itself: the fastest (spec 4.9 steps 4-5).
 *
 * @example
 * ```ts
 * import { createHmac, hash } from "node:crypto";
 * const fastest: VerifyWebhookSyncInput = { body, url, headers, secrets: secret, hash };
 * const streamed: VerifyWebhookSyncInput = { body, url, headers, secrets: secret, createHmac };
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
        readonly hash?: undefined;
      }
    | {
        /** An incremental HMAC constructor such as `node:crypto`'s `createHmac`. */
        readonly createHmac: CreateHmac;
        readonly hmac?: undefined;
        readonly hash?: undefined;
      }
    | {
        /** A one-shot SHA-256 such as `node:crypto`'s `hash`. */
        readonly hash: HashSha256;
        readonly hmac?: undefined;
        readonly createHmac?: undefined;
      }
  );

/**
 * `verifyWebhook` with a synchronous HMAC, returning the outcome directly: the fastest way to
 * verify on a server, e.g. with `node:crypto` (spec 4.9, 5.7). Same checks, same order, same
 * outcome and diagnostics; only the HMAC must answer at once.
 *
 * The common case (the first secret, the raw reading) costs one HMAC and no promise: the signed
 * query of the last URL is remembered; with `hash` core computes the HMAC from each secret's
 * cached padded keys in two one-shot hashes; with `createHmac` the secret's bytes are cached and a
 * byte body is fed after the signing text's head instead of being copied into one message. Either
 * way the MAC is compared as bytes with the hex signature.
 *
 * @throws TypeError when no secret is given, one is empty, no HMAC is given, `hmac` returns
 *   anything but a string or `hash` anything but 32 binary characters; RangeError for a negative
 *   tolerance.
 *
 * @example
 * ```ts
 * import { hash } from "node:crypto";
 * const result = verifyWebhookSync({ body: rawBody, url: req.url, headers: req.headers, secrets, hash });
 * if (!result.ok) return res.writeHead(401).end(result.code);
 * ```
 */
export function verifyWebhookSync(input: VerifyWebhookSyncInput): WebhookVerification {
  const checked = checkDelivery(input);
  if (checked.ok === false) return checked;
  const signed = signedQueryOf(input.url);
  const first = checked.secrets[0] ?? "";
  const firstMatches =
    input.hash !== undefined
      ? constantTimeEqualHex(
          hmacSha256Binary(
            input.hash,
            first,
            checked.timestamp,
            signed.betweenBytes ?? signed.between,
            checked.body,
          ),
          checked.signature,
        )
      : input.createHmac !== undefined
        ? streamedMacMatches(input.createHmac, first, checked, signed.between)
        : constantTimeEqual(
            syncMac(
              givenHmac(input)(first, signingMessage(checked.timestamp, signed.raw, checked.body)),
            ),
            checked.signature,
          );
  if (firstMatches) return verified(checked, 0, "raw");

  // A miss: every other secret and reading, as `verifyWebhook` tries them.
  const given =
    input.hash !== undefined
      ? hmacSha256HexFromHash(input.hash)
      : input.createHmac !== undefined
        ? hmacSha256HexFrom(input.createHmac)
        : input.hmac;
  const hmac: HmacSha256HexSync = (secret, message) => syncMac(given(secret, message));
  for (const { reading, canonical } of signedReadings(signed.query, signed.raw)) {
    const message = signingMessage(checked.timestamp, canonical, checked.body);
    for (const [index, secret] of checked.secrets.entries()) {
      if (reading === "raw" && index === 0) continue; // the first HMAC above
      if (constantTimeEqual(hmac(secret, message), checked.signature)) {
        return verified(checked, index, reading);
      }
    }
  }
  const malformed = malformedSignature(checked.signature);
  if (malformed) return malformed;
  const diagnoses =
    input.diagnose === false
      ? []
      : diagnoseMismatchSync(mismatchContext(input, checked, signed.query), hmac);
  return mismatch(checked.secrets.length, diagnoses);
}

/**
 * Whether the delivery's signature is the HMAC of its signing text under `secret`, with an
 * incremental HMAC: text is joined to the head first (one `update` costs less than a second call
 * into the HMAC's native handle); bytes are fed after it, never copied. The MAC is read as
 * `digest("binary")`, 32 characters that are compared with the signature's 64 hex ones: 96
 * character reads instead of 128. An HMAC that answers hex whatever it is asked is compared as hex.
 */
function streamedMacMatches(
  createHmac: CreateHmac,
  secret: string,
  checked: CheckedDelivery,
  between: string,
): boolean {
  const stream = createHmac("sha256", secretBytes(secret));
  const head = checked.timestamp + between;
  const body = checked.body;
  const mac = syncMac(
    typeof body === "string"
      ? stream.update(head + body).digest("binary")
      : stream.update(head).update(body).digest("binary"),
  );
  return mac.length === 32
    ? constantTimeEqualHex(mac, checked.signature)
    : constantTimeEqual(mac, checked.signature);
}

/** `input.hmac`, or a TypeError naming the three choices when no HMAC was given at all. */
function givenHmac(input: { readonly hmac?: HmacSha256HexSync }): HmacSha256HexSync {
  if (typeof input.hmac === "function") return input.hmac;
  throw new TypeError(
    "verifyWebhookSync needs `hash` (node:crypto's, Node >= 20.12), `createHmac` or `hmac`",
  );
}

/**
 * `mac` when it is a string; a TypeError otherwise (an asynchronous HMAC given where a
 * synchronous one is needed: TypeScript catches it, plain JavaScript may not).
 */
function syncMac(mac: unknown): string {
  if (typeof mac === "string") return mac;
  throw new TypeError(
    "verifyWebhookSync needs an hmac that returns a string; use verifyWebhook for an asynchronous one",
  );
}

/** The query of a URL as given, and its signed query string in the raw reading. */
interface SignedQuery {
  readonly query: string;
  readonly raw: string;
  /** LF, `raw`, LF: the signing text between the timestamp and the body (spec 4.9 step 4). */
  readonly between: string;
  /** The same as UTF-8 bytes, once the query is seen a second time. */
  betweenBytes?: Uint8Array;
}

// A receiver is called at the same address again and again. Remembering the last URL's signed
// query (one entry; no secret in it) turns parsing and sorting the query into one string
// comparison per request.
let lastUrl = "";
let lastSigned: SignedQuery = signedQuery("", "");

const encoder = new TextEncoder();

function signedQueryOf(url: string | URL): SignedQuery {
  if (url === lastUrl) {
    lastSigned.betweenBytes ??= encoder.encode(lastSigned.between);
    return lastSigned;
  }
  const query = queryOf(url);
  const signed = signedQuery(query, canonicalQuery(query));
  if (typeof url === "string") {
    lastUrl = url;
    lastSigned = signed;
  }
  return signed;
}

function signedQuery(query: string, raw: string): SignedQuery {
  const between = "\n" + raw + "\n";
  return { query, raw, between };
}
