import { randomBytes } from "node:crypto";

/** An unguessable identifier: `bytes` random bytes as base64url, with an optional prefix. */
export function randomId(prefix = "", bytes = 24): string {
  return prefix + randomBytes(bytes).toString("base64url");
}

/** `bytes` random bytes as lowercase hex (the live platform's event ids: 16 bytes, 32 digits). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

const UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** `length` uppercase letters and digits (the live platform's task ids), uniformly drawn. */
export function randomUpperAlnum(length: number): string {
  let out = "";
  while (out.length < length)
    for (const byte of randomBytes(length))
      // 252 = 7 × 36: bytes above it would favour the first letters.
      if (byte < 252 && out.length < length) out += UPPER_ALNUM.charAt(byte % 36);
  return out;
}

/** FNV-1a 32-bit hash: a stable small seed from text (audio, avatar colours). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded PRNG so lifecycle durations and failures repeat run after run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
