/**
 * Computes HMAC-SHA256 of `message` (UTF-8) keyed by `secret` (UTF-8) and returns lowercase hex
 * (verification compares it as is, so uppercase output would never match).
 * May answer synchronously: a Node server can pass
 * `(s, m) => createHmac("sha256", s).update(m).digest("hex")` for speed. Spec 4.9 step 5.
 *
 * @example
 * ```ts
 * const hmac: HmacSha256Hex = webCryptoHmacSha256Hex;
 * await hmac("key", "text"); // 64 lowercase hex characters
 * ```
 */
export type HmacSha256Hex = (secret: string, message: string) => string | Promise<string>;

/** Options of {@link createWebCryptoHmac}. */
export interface WebCryptoHmacOptions {
  /** How many imported keys to keep; the oldest is dropped first. Default 64. */
  readonly maxKeys?: number;
  /** The `SubtleCrypto` to use; default `globalThis.crypto.subtle`. */
  readonly subtle?: SubtleCrypto;
}

const encoder = new TextEncoder();
// ASCII codes of "0"-"9", "a"-"f".
const DIGITS = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const chars: number[] = [];

/**
 * Lowercase hex of some bytes. Built with one `String.fromCharCode` call so the result is a flat
 * string, which hashes and compares faster than a rope of 32 concatenations.
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
 * The default {@link HmacSha256Hex}: WebCrypto with a shared cache of up to 64 imported keys.
 *
 * @example
 * ```ts
 * await webCryptoHmacSha256Hex("key", "The quick brown fox jumps over the lazy dog");
 * // "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
 * ```
 */
export const webCryptoHmacSha256Hex: HmacSha256Hex = createWebCryptoHmac();
