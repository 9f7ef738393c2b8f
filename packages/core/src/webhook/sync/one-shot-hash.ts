import { toHex, type HmacSha256HexSync } from "../hmac.ts";
import { createSecretCache } from "./secret-cache.ts";

/**
 * A one-shot SHA-256 in the shape of `node:crypto`'s `hash` (Node ≥ 20.12): the digest of `data`
 * as `"binary"` text, one character per byte. Typed structurally so that core imports nothing
 * from Node: pass `node:crypto`'s own. Core builds HMAC-SHA256 on it (RFC 2104), which costs
 * about half of what `createHmac` does here: one native call per hash, no stream object per
 * delivery, and a short string where a Buffer would cost an allocation (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * import { hash } from "node:crypto";
 * const result = verifyWebhookSync({ body, url, headers, secrets, hash });
 * ```
 */
export type HashSha256 = (
  algorithm: "sha256",
  data: Uint8Array,
  outputEncoding: "binary",
) => string;

const BLOCK = 64;
const DIGEST = 32;
const encoder = new TextEncoder();

/** A secret's key block XORed with HMAC's two pads; `outer` has room for the inner digest. */
interface Pads {
  readonly inner: Uint8Array;
  readonly outer: Uint8Array;
}

const padsCache = createSecretCache<Pads>();

// One message buffer, reused: the HMAC is synchronous, so no second call can run while one uses
// it. Messages above the cap get a buffer of their own, so one large body does not stay resident.
const SCRATCH_CAP = 64 * 1024;
let scratch = new Uint8Array(4096);

/**
 * HMAC-SHA256 of `timestamp` + `between` + `body` (the signing text's parts, spec 4.9 step 4;
 * `between` as text or already encoded) under `secret`, on a one-shot SHA-256 (RFC 2104): the
 * inner hash of the padded key and the message, then the outer hash. The message is copied into
 * one reused buffer: the short parts by hand when they are ASCII, a text body by the encoder.
 * The MAC is returned as `"binary"` text, 32 characters.
 *
 * @throws TypeError when `hash` does not answer 32 characters (it ignored `"binary"`).
 */
export function hmacSha256Binary(
  hash: HashSha256,
  secret: string,
  timestamp: string,
  between: string | Uint8Array,
  body: string | Uint8Array,
): string {
  const pads = padsCache.get(secret) ?? padsCache.add(secret, padsFor(hash, secret));
  const bodyRoom = typeof body === "string" ? body.length * 3 : body.length;
  const room = BLOCK + (timestamp.length + between.length) * 3 + bodyRoom;
  const message = room <= scratch.length ? scratch : grow(room);
  message.set(pads.inner);
  let at = writeText(message, BLOCK, timestamp);
  if (typeof between === "string") {
    at = writeText(message, at, between);
  } else {
    message.set(between, at);
    at += between.length;
  }
  if (typeof body === "string") {
    at += encoder.encodeInto(body, message.subarray(at)).written;
  } else {
    message.set(body, at);
    at += body.length;
  }
  const inner = hash("sha256", message.subarray(0, at), "binary");
  if (inner.length !== DIGEST) {
    throw new TypeError('verifyWebhookSync\'s hash must answer a SHA-256 digest as "binary" text');
  }
  const outer = pads.outer;
  for (let i = 0; i < DIGEST; i++) outer[BLOCK + i] = inner.charCodeAt(i);
  return hash("sha256", outer, "binary");
}

/**
 * Writes `text` as UTF-8 at `at`; answers where it ends. Short ASCII text is copied by hand,
 * which costs less than a view for the encoder.
 */
function writeText(buffer: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return at - i + encoder.encodeInto(text, buffer.subarray(at - i)).written;
    buffer[at++] = code;
  }
  return at;
}

/**
 * An {@link HmacSha256HexSync} on a {@link HashSha256} such as `node:crypto`'s `hash`, with each
 * secret's padded keys cached: for `signWebhook`, `verifyWebhook` or anything else that takes a
 * `(secret, message)` HMAC (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * import { hash } from "node:crypto";
 * const hmac = hmacSha256HexFromHash(hash);
 * hmac("key", "The quick brown fox jumps over the lazy dog"); // "f7bc83f4…"
 * ```
 */
export function hmacSha256HexFromHash(hash: HashSha256): HmacSha256HexSync {
  return (secret, message) => binaryToHex(hmacSha256Binary(hash, secret, "", "", message));
}

function grow(room: number): Uint8Array {
  const buffer = new Uint8Array(room);
  if (room <= SCRATCH_CAP) scratch = buffer;
  return buffer;
}

function padsFor(hash: HashSha256, secret: string): Pads {
  let key: Uint8Array = encoder.encode(secret);
  // RFC 2104: a key longer than the block is replaced by its hash.
  if (key.length > BLOCK) key = binaryBytes(hash("sha256", key, "binary"));
  const inner = new Uint8Array(BLOCK);
  const outer = new Uint8Array(BLOCK + DIGEST);
  for (let i = 0; i < BLOCK; i++) {
    const byte = key[i] ?? 0;
    inner[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  return { inner, outer };
}

function binaryBytes(binary: string): Uint8Array {
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function binaryToHex(binary: string): string {
  return toHex(binaryBytes(binary));
}
