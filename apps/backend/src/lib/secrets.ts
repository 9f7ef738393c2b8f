import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random, URL-safe bearer value with a readable prefix (so leaked ones are recognisable). */
export function newOpaqueToken(prefix: string, bytes = 32): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

/** SHA-256 hex: how session tokens, `state`, hand-off codes and webhook keys are stored. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** PKCE S256 (RFC 7636): base64url(SHA-256(verifier)). */
export function pkceS256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** Constant-time string equality (length differences return false without early exit on content). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
