/**
 * Computes HMAC-SHA256 of `message` (UTF-8) keyed by `secret` (UTF-8) and returns lowercase hex
 * (verification compares it as is, so uppercase output would never match).
 * May answer synchronously, which `verifyWebhook` then never awaits: a Node server can pass
 * `hmacSha256HexFrom(createHmac)`, or use `verifyWebhookSync` with `createHmac`. Spec 4.9 step 5.
 *
 * @example
 * ```ts
 * const hmac: HmacSha256Hex = webCryptoHmacSha256Hex;
 * await hmac("key", "text"); // 64 lowercase hex characters
 * ```
 */
export type HmacSha256Hex = (secret: string, message: string) => string | Promise<string>;

/**
 * A synchronous {@link HmacSha256Hex}, as `verifyWebhookSync` needs: HMAC-SHA256 of `message`
 * (UTF-8) keyed by `secret` (UTF-8), as lowercase hex, returned directly. WebCrypto has no
 * synchronous API, so this is for runtimes with one, such as Node's `node:crypto` (spec 4.9
 * step 5).
 *
 * @example
 * ```ts
 * import { createHmac } from "node:crypto";
 * const hmac: HmacSha256HexSync = (secret, message) =>
 *   createHmac("sha256", secret).update(message).digest("hex");
 * ```
 */
export type HmacSha256HexSync = (secret: string, message: string) => string;

/**
 * The part of an incremental HMAC that core uses: `update` with text (UTF-8), then `digest`
 * as hex. Node's `Hmac` (from `createHmac`) has this shape (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * const mac: HmacStream = createHmac("sha256", secret);
 * mac.update("1767225600000\n\n").update(body).digest("hex");
 * ```
 */
export interface HmacStream {
  update(data: string): HmacStream;
  digest(encoding: "hex"): string;
}

/**
 * A `createHmac("sha256", key)` in the shape of `node:crypto`'s, typed structurally so that core
 * imports nothing from Node: pass `node:crypto`'s own. Core gives it the secret's UTF-8 bytes,
 * encoded once per secret and cached (a key given as a string is re-encoded by Node on every
 * call), and `verifyWebhookSync` feeds it the head of the signing text and the body separately,
 * so the body is never copied into one string (spec 4.9 steps 4-5). It must not modify `key`.
 *
 * @example
 * ```ts
 * import { createHmac } from "node:crypto";
 * const result = verifyWebhookSync({ body, url, headers, secrets, createHmac });
 * ```
 */
export type CreateHmac = (algorithm: "sha256", key: Uint8Array) => HmacStream;

/**
 * An {@link HmacSha256HexSync} on a {@link CreateHmac} such as `node:crypto`'s, with each
 * secret's bytes cached: for `signWebhook`, `verifyWebhook` or anything else that takes a
 * `(secret, message)` HMAC (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * import { createHmac } from "node:crypto";
 * const hmac = hmacSha256HexFrom(createHmac);
 * hmac("key", "The quick brown fox jumps over the lazy dog"); // "f7bc83f4…"
 * ```
 */
export function hmacSha256HexFrom(createHmac: CreateHmac): HmacSha256HexSync {
  return (secret, message) =>
    createHmac("sha256", secretBytes(secret)).update(message).digest("hex");
}

/**
 * Options of {@link createWebCryptoHmac} (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * const options: WebCryptoHmacOptions = { maxKeys: 4, subtle: crypto.subtle };
 * ```
 */
export interface WebCryptoHmacOptions {
  /** How many imported keys to keep; the oldest is dropped first. Default 64. */
  readonly maxKeys?: number;
  /** The `SubtleCrypto` to use; default `globalThis.crypto.subtle`. */
  readonly subtle?: SubtleCrypto;
}

const encoder = new TextEncoder();
const SECRET_CACHE_SIZE = 64;
const secretCache = new Map<string, Uint8Array>();

/**
 * The UTF-8 bytes of `secret`, cached (first in, first out, 64 secrets) because a server
 * verifies with the same few secrets all day. Only for a {@link CreateHmac}.
 */
export function secretBytes(secret: string): Uint8Array {
  let bytes = secretCache.get(secret);
  if (bytes === undefined) {
    if (secretCache.size >= SECRET_CACHE_SIZE) {
      const oldest = secretCache.keys().next();
      if (oldest.done !== true) secretCache.delete(oldest.value);
    }
    bytes = encoder.encode(secret);
    secretCache.set(secret, bytes);
  }
  return bytes;
}

// ASCII codes of "0"-"9", "a"-"f".
const DIGITS = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const chars: number[] = [];

/**
 * Lowercase hex of some bytes, as spec 4.8 wants `X-Signature`. Built with one
 * `String.fromCharCode` call so the result is a flat string, which hashes and compares faster
 * than a rope of 32 concatenations.
 *
 * @example
 * ```ts
 * toHex(new Uint8Array([0, 171, 255])); // "00abff"
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  chars.length = bytes.length * 2;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] ?? 0;
    chars[2 * i] = DIGITS[byte >> 4] ?? 0;
    chars[2 * i + 1] = DIGITS[byte & 15] ?? 0;
  }
  return String.fromCharCode(...chars);
}

interface CachedKey {
  key: CryptoKey | undefined;
  readonly ready: Promise<CryptoKey>;
}

/**
 * An {@link HmacSha256Hex} on WebCrypto (`crypto.subtle`), which every runtime core targets has.
 * Importing a key costs about as much as signing, so imported keys are cached per secret
 * (first in, first out, `maxKeys` entries); the secret itself is only held as the cache's key.
 * Spec 4.9 step 5.
 *
 * @example
 * ```ts
 * const hmac = createWebCryptoHmac({ maxKeys: 8 });
 * const signature = await hmac("secret", "1767225600000\n\n{}");
 * ```
 */
export function createWebCryptoHmac(options: WebCryptoHmacOptions = {}): HmacSha256Hex {
  const maxKeys = options.maxKeys ?? 64;
  const cache = new Map<string, CachedKey>();

  function keyFor(secret: string, subtle: SubtleCrypto): CachedKey {
    const hit = cache.get(secret);
    if (hit) return hit;
    if (cache.size >= maxKeys) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    const ready = subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const entry: CachedKey = { key: undefined, ready };
    cache.set(secret, entry);
    void ready.then(
      (key) => {
        entry.key = key;
      },
      // A failed import must not stay cached; the caller sees the rejection through `ready`.
      () => {
        if (cache.get(secret) === entry) cache.delete(secret);
      },
    );
    return entry;
  }

  return async function webCryptoHmac(secret: string, message: string): Promise<string> {
    const subtle = options.subtle ?? globalThis.crypto.subtle;
    const entry = keyFor(secret, subtle);
    const key = entry.key ?? (await entry.ready);
    const mac = await subtle.sign("HMAC", key, encoder.encode(message));
    return toHex(new Uint8Array(mac));
  };
}

/**
 * The default {@link HmacSha256Hex}: WebCrypto with a shared cache of up to 64 imported keys
 * (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * await webCryptoHmacSha256Hex("key", "The quick brown fox jumps over the lazy dog");
 * // "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
 * ```
 */
export const webCryptoHmacSha256Hex: HmacSha256Hex = createWebCryptoHmac();
