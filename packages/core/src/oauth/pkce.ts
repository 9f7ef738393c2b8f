/** RFC 7636 §4.1: 43–128 characters from the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * A random, URL-safe token: `bytes` random bytes (WebCrypto) as unpadded base64url. 32 bytes
 * (the default) give 43 characters, 256 bits: right for `state`, session tokens and PKCE
 * verifiers (spec 5 rule 7 asks for a random `state`).
 *
 * @example
 * ```ts
 * const state = randomToken(); // "Xq3…" (43 characters)
 * ```
 */
export function randomToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 65_536)
    throw new RangeError("randomToken needs a whole number of bytes between 1 and 65536");
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * Whether `verifier` is a valid RFC 7636 code verifier (43–128 unreserved characters), e.g. to
 * check what an extension posts before hashing it (DESIGN: sign-in). Spec 4.1 does not show
 * PKCE; Overture uses it for its own extension hand-off.
 *
 * @example
 * ```ts
 * isPkceVerifier("too-short"); // false
 * ```
 */
export function isPkceVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/**
 * The S256 code challenge of a PKCE verifier: `base64url(SHA-256(verifier))` (RFC 7636 §4.2).
 * Overture binds its extension hand-off to it (DESIGN: sign-in); the platform's own OAuth does
 * not show PKCE (spec 4.1). Rejects a verifier that RFC 7636 does not allow with a `TypeError`.
 *
 * @example
 * ```ts
 * await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
 * // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
 * ```
 */
export async function pkceChallenge(verifier: string): Promise<string> {
  if (!isPkceVerifier(verifier))
    throw new TypeError("A PKCE verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/**
 * A PKCE verifier and its S256 challenge (RFC 7636; spec 4.1 does not show PKCE).
 *
 * @example
 * ```ts
 * const pair: PkcePair = await createPkcePair();
 * ```
 */
export interface PkcePair {
  verifier: string;
  challenge: string;
}

/**
 * A fresh PKCE pair: a 43-character random verifier and its S256 challenge (RFC 7636), for
 * Overture's extension hand-off (spec 4.1 does not show PKCE; spec 5 rule 7 asks to bind the
 * callback to its request).
 *
 * @example
 * ```ts
 * const { verifier, challenge } = await createPkcePair();
 * // send challenge now, keep verifier for the code exchange
 * ```
 */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = randomToken(32);
  return { verifier, challenge: await pkceChallenge(verifier) };
}
