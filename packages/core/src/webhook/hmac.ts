/**
 * Computes HMAC-SHA256 of `message` (a string as UTF-8, or exact bytes: a webhook body received
 * as bytes is signed as those bytes) keyed by `secret` (UTF-8) and returns lowercase hex
 * (verification compares it as is, so uppercase output would never match). May answer
 * synchronously or with a promise; `verifyWebhookSync` needs one that answers synchronously
 * ({@link HmacSha256HexSync}). Spec 4.9 step 5.
 *
 * @example
 * ```ts
 * const hmac: HmacSha256Hex = webCryptoHmacSha256Hex;
 * await hmac("key", "text"); // 64 lowercase hex characters
 * ```
 */
export type HmacSha256Hex = (
  secret: string,
  message: string | Uint8Array,
) => string | Promise<string>;

/**
 * A synchronous {@link HmacSha256Hex}, as `verifyWebhookSync` needs: HMAC-SHA256 of `message`
 * (a string as UTF-8, or bytes) keyed by `secret` (UTF-8), as lowercase hex, returned directly. WebCrypto has no
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
export type HmacSha256HexSync = (secret: string, message: string | Uint8Array) => string;

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
  readonly maxKeys?: number | undefined;
  /** The `SubtleCrypto` to use; default `globalThis.crypto.subtle`. */
  readonly subtle?: SubtleCrypto | undefined;
}

const encoder = new TextEncoder();

// "00" to "ff", by byte value.
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/**
 * Lowercase hex of some bytes, as spec 4.8 wants `X-Signature`.
 *
 * @example
 * ```ts
 * toHex(new Uint8Array([0, 171, 255])); // "00abff"
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => HEX[byte] ?? "").join("");
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
  const cache = new Map<string, Promise<CryptoKey>>();

  function keyFor(secret: string, subtle: SubtleCrypto): Promise<CryptoKey> {
    const hit = cache.get(secret);
    if (hit) return hit;
    if (cache.size >= maxKeys) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    const key = subtle.importKey(
      "raw",
      encoder.encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    cache.set(secret, key);
    // A failed import must not stay cached; the caller sees the rejection through `key`.
    void key.catch(() => {
      if (cache.get(secret) === key) cache.delete(secret);
    });
    return key;
  }

  return async function webCryptoHmac(
    secret: string,
    message: string | Uint8Array,
  ): Promise<string> {
    const subtle = options.subtle ?? globalThis.crypto.subtle;
    const key = await keyFor(secret, subtle);
    // Bodies are never in a SharedArrayBuffer, which WebCrypto refuses; TypeScript cannot know.
    const data =
      typeof message === "string" ? encoder.encode(message) : (message as Uint8Array<ArrayBuffer>);
    const mac = await subtle.sign("HMAC", key, data);
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
