import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Encryption at rest for platform tokens and webhook secrets: AES-256-GCM, a fresh 96-bit IV per
 * value, and the key id in the output so keys can rotate (the first key seals, every key opens).
 * The `context` is bound as additional authenticated data, so a ciphertext copied into another
 * row or column fails to open instead of silently decrypting there.
 *
 * Sealed format: `v1.<key id>.<iv base64url>.<ciphertext+tag base64url>`.
 */
export interface Vault {
  /** The id of the key `seal` uses (the first listed); the re-seal rewrites values of others. */
  readonly currentKeyId: string;
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Whether a sealed value was made with a key other than the current one. */
  isStale(sealed: string): boolean;
}

/** `v1.<key id>.<12-byte IV>.<ciphertext and 16-byte tag>`, base64url without padding. */
const SEALED = /^v1\.([A-Za-z0-9_-]{1,16})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)$/;
const TAG = 16;

/** Whether `text` is the one base64url spelling of `bytes` (what `seal` writes). */
const canonical = (bytes: Buffer, text: string) => bytes.toString("base64url") === text;

export class VaultError extends Error {
  override readonly name = "VaultError";
}

export function createVault(keys: readonly { id: string; key: string }[]): Vault {
  const [current] = keys;
  if (!current) throw new VaultError("at least one encryption key is required");
  const byId = new Map(keys.map(({ id, key }) => [id, Buffer.from(key, "base64")]));
  const currentKey = byId.get(current.id) as Buffer;

  return {
    currentKeyId: current.id,
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", currentKey, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([
        cipher.update(plaintext, "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `v1.${current.id}.${iv.toString("base64url")}.${body.toString("base64url")}`;
    },
    open(sealed, context) {
      const parts = SEALED.exec(sealed);
      const [, keyId = "", ivText = "", bodyText = ""] = parts ?? [];
      const iv = Buffer.from(ivText, "base64url");
      const body = Buffer.from(bodyText, "base64url");
      // One encoding only: Node's base64url decoder also takes `+`, `/`, `=` and drops a
      // trailing character, so the same value had several spellings (and a link several URLs).
      if (!parts || !canonical(iv, ivText) || !canonical(body, bodyText) || body.length < TAG)
        throw new VaultError("not a sealed value");
      const key = byId.get(keyId);
      if (!key) throw new VaultError(`sealed with unknown key id "${keyId}"`);
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(body.subarray(body.length - TAG));
      try {
        return Buffer.concat([
          decipher.update(body.subarray(0, body.length - TAG)),
          decipher.final(),
        ]).toString("utf8");
      } catch (error) {
        throw new VaultError("sealed value failed authentication (wrong key or context)", {
          cause: error,
        });
      }
    },
    isStale(sealed) {
      return sealed.split(".", 2)[1] !== current.id;
    },
  };
}
