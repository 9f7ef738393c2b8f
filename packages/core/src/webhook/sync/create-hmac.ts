import type { HmacSha256HexSync } from "../hmac.ts";
import { createSecretCache } from "./secret-cache.ts";

/**
 * The part of an incremental HMAC that core uses: `update` with text (UTF-8) or bytes, then
 * `digest` as hex, or as `"binary"` (one character per byte, which `verifyWebhookSync` compares
 * with fewer reads; an HMAC that answers hex to it still works). Node's `Hmac` (from
 * `createHmac`) has this shape (spec 4.9 step 5).
 *
 * @example
 * ```ts
 * const mac: HmacStream = createHmac("sha256", secret);
 * mac.update("1767225600000\n\n").update(body).digest("hex");
 * ```
 */
export interface HmacStream {
  /** Feeds more of the message (text as UTF-8). */
  update(data: string | Uint8Array): HmacStream;
  /** The MAC, as lowercase hex or as a `"binary"` string of 32 characters. */
  digest(encoding: "hex" | "binary"): string;
}

/**
 * A `createHmac("sha256", key)` in the shape of `node:crypto`'s, typed structurally so that core
 * imports nothing from Node: pass `node:crypto`'s own. Core gives it the secret's UTF-8 bytes,
 * encoded once per secret and cached (a key given as a string is re-encoded by Node on every
 * call), and `verifyWebhookSync` feeds it the head of the signing text and a byte body
 * separately, so the body is never copied into one message (spec 4.9 steps 4-5). It must not
 * modify `key`.
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

const encoder = new TextEncoder();
const secretCache = createSecretCache<Uint8Array>();

/**
 * The UTF-8 bytes of `secret`, cached (the last 1024 secrets) because a server verifies with the
 * same secrets all day. Only for a {@link CreateHmac}.
 */
export function secretBytes(secret: string): Uint8Array {
  return secretCache.get(secret) ?? secretCache.add(secret, encoder.encode(secret));
}
