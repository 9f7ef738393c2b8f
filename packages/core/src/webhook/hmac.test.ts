import { describe, expect, it } from "vitest";
import { createWebCryptoHmac, toHex, webCryptoHmacSha256Hex } from "./index.ts";
import { syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";

// printf 'The quick brown fox jumps over the lazy dog' | openssl dgst -sha256 -hmac key
const FOX = "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8";
const FOX_TEXT = "The quick brown fox jumps over the lazy dog";

/** A SubtleCrypto that counts key imports and delegates to the real one. */
function countingSubtle(options: { failFor?: string } = {}) {
  const real = globalThis.crypto.subtle;
  const imports: string[] = [];
  const decoder = new TextDecoder();
  const subtle = {
    importKey: (
      format: "raw",
      data: BufferSource,
      algorithm: HmacImportParams,
      extractable: boolean,
      usages: KeyUsage[],
    ) => {
      const secret = decoder.decode(data);
      imports.push(secret);
      if (secret === options.failFor) return Promise.reject(new Error("import failed"));
      return real.importKey(format, data, algorithm, extractable, usages);
    },
    sign: (algorithm: string, key: CryptoKey, data: BufferSource) =>
      real.sign(algorithm, key, data),
  } as unknown as SubtleCrypto;
  return { subtle, imports };
}

describe("webCryptoHmacSha256Hex (spec 4.9 step 5)", () => {
  it("matches the HMAC-SHA256 that openssl computes", async () => {
    expect(await webCryptoHmacSha256Hex("key", FOX_TEXT)).toBe(FOX);
  });

  it("agrees with an independent implementation on UTF-8 secrets and messages", async () => {
    for (const [secret, message] of [
      ["秘密-🔑", "生成完成 🎵\n"],
      ["k".repeat(100), ""],
      ["s", "x".repeat(1000)],
    ] as const) {
      expect(await webCryptoHmacSha256Hex(secret, message)).toBe(
        syncHmacSha256Hex(secret, message),
      );
    }
  });
});

describe("createWebCryptoHmac key cache", () => {
  it("imports a secret's key once and reuses it", async () => {
    const { subtle, imports } = countingSubtle();
    const hmac = createWebCryptoHmac({ subtle });
    await Promise.all([hmac("a", "1"), hmac("a", "2")]);
    await hmac("a", "3");
    expect(imports).toEqual(["a"]);
  });

  it("keeps at most maxKeys keys, dropping the oldest", async () => {
    const { subtle, imports } = countingSubtle();
    const hmac = createWebCryptoHmac({ subtle, maxKeys: 2 });
    for (const secret of ["a", "b", "c", "b", "a"]) await hmac(secret, "m");
    expect(imports).toEqual(["a", "b", "c", "a"]);
  });

  it("does not cache a failed import", async () => {
    const { subtle, imports } = countingSubtle({ failFor: "bad" });
    const hmac = createWebCryptoHmac({ subtle });
    await expect(hmac("bad", "m")).rejects.toThrow("import failed");
    await expect(hmac("bad", "m")).rejects.toThrow("import failed");
    expect(imports).toEqual(["bad", "bad"]);
  });
});

describe("toHex", () => {
  it("writes two lowercase digits per byte", () => {
    expect(toHex(new Uint8Array([0, 10, 171, 255]))).toBe("000aabff");
  });
});
