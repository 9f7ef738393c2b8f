import { describe, expect, it } from "vitest";
import { createPkcePair, isPkceVerifier, pkceChallenge, randomToken } from "./index.ts";

describe("randomToken", () => {
  it("returns 43 base64url characters for the default 32 bytes", () => {
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("returns a different token each time", () => {
    expect(randomToken()).not.toBe(randomToken());
  });

  it("encodes the requested number of bytes without padding", () => {
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomToken(1)).toHaveLength(2);
  });

  it.each([0, 1.5, -1, 65_537])("rejects %s bytes", (bytes) => {
    expect(() => randomToken(bytes)).toThrow(RangeError);
  });
});

describe("pkceChallenge (RFC 7636)", () => {
  it("matches the S256 example of RFC 7636 Appendix B", async () => {
    expect(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("rejects a verifier shorter than 43 characters", async () => {
    await expect(pkceChallenge("a".repeat(42))).rejects.toThrow(TypeError);
  });

  it("rejects a verifier with characters outside the unreserved set", async () => {
    await expect(pkceChallenge(`${"a".repeat(42)}+`)).rejects.toThrow(TypeError);
  });
});

describe("isPkceVerifier", () => {
  it("accepts 43 to 128 unreserved characters", () => {
    expect(isPkceVerifier("a".repeat(43))).toBe(true);
    expect(isPkceVerifier("-._~".repeat(32))).toBe(true);
  });

  it("rejects 129 characters", () => {
    expect(isPkceVerifier("a".repeat(129))).toBe(false);
  });
});

describe("createPkcePair", () => {
  it("returns a valid verifier and its challenge", async () => {
    const { verifier, challenge } = await createPkcePair();
    expect(isPkceVerifier(verifier)).toBe(true);
    expect(challenge).toBe(await pkceChallenge(verifier));
  });
});
