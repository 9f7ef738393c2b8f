/**
 * Compares two strings in time that depends only on their lengths, not on where they differ, so a
 * signature cannot be guessed one character at a time from response timings (spec 4.9 step 6).
 *
 * @example
 * ```ts
 * constantTimeEqual("abc", "abc"); // true
 * constantTimeEqual("abc", "abd"); // false
 * ```
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// Each character code's value as a lowercase hex digit, or 0x100 for any other character, so
// that it spoils the byte it is part of. Indexed by the signature's own characters, which the
// sender chose: the lookups reveal nothing about the MAC.
const HEX_DIGIT = new Uint16Array(256).fill(0x100);
for (let i = 0; i < 10; i++) HEX_DIGIT[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEX_DIGIT[0x61 + i] = 10 + i;

/**
 * Whether the lowercase hex `hex` spells the bytes of `binary` (one byte per character, as
 * `digest("binary")` gives a MAC), in time that depends only on the lengths: 96 character reads
 * for a SHA-256 MAC where comparing two hex strings takes 128 (spec 4.9 step 6).
 *
 * @example
 * ```ts
 * constantTimeEqualHex("\u00ab\u00cd", "abcd"); // true
 * constantTimeEqualHex("\u00ab\u00cd", "ABCD"); // false: the spec says lowercase
 * ```
 */
export function constantTimeEqualHex(binary: string, hex: string): boolean {
  if (hex.length !== binary.length * 2) return false;
  let diff = 0;
  for (let i = 0; i < binary.length; i++) {
    const a = hex.charCodeAt(2 * i);
    const b = hex.charCodeAt(2 * i + 1);
    // Codes above 0xff read entry 0xff, which is not a digit.
    const high = HEX_DIGIT[a < 0x100 ? a : 0xff] ?? 0x100;
    const low = HEX_DIGIT[b < 0x100 ? b : 0xff] ?? 0x100;
    diff |= binary.charCodeAt(i) ^ ((high << 4) | low);
  }
  return diff === 0;
}

/**
 * Whether `text` is exactly 64 characters of `0-9a-f`: the shape of an `X-Signature` (spec 4.8).
 *
 * @example
 * ```ts
 * isLowerHexSignature("ab".repeat(32)); // true
 * isLowerHexSignature("AB".repeat(32)); // false: the spec says lowercase
 * ```
 */
export function isLowerHexSignature(text: string): boolean {
  if (text.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

/**
 * Whether `text` is exactly 13 ASCII digits: the shape of an `X-Sign-Timestamp` (spec 4.8).
 *
 * @example
 * ```ts
 * isTimestamp13("1767225600000"); // true (milliseconds)
 * isTimestamp13("1767225600");    // false (seconds)
 * ```
 */
export function isTimestamp13(text: string): boolean {
  return parseTimestamp13(text) !== -1;
}

/**
 * The value of a 13-ASCII-digit timestamp, or -1 when `text` has another shape (spec 4.8).
 * 13 digits stay below 2^53, so the value is exact.
 */
export function parseTimestamp13(text: string): number {
  if (text.length !== 13) return -1;
  let value = 0;
  for (let i = 0; i < 13; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
