import { describe, expect, it } from "vitest";
import { hmacSha256HexFrom } from "../index.ts";
import { recordingCreateHmac } from "../sync-hmac.fixtures.ts";
import { secretBytes } from "./create-hmac.ts";

// printf 'The quick brown fox jumps over the lazy dog' | openssl dgst -sha256 -hmac key
const FOX = "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8";
const FOX_TEXT = "The quick brown fox jumps over the lazy dog";

describe("hmacSha256HexFrom (a createHmac such as node:crypto's)", () => {
  it("computes HMAC-SHA256 of the whole message with the secret's UTF-8 bytes", () => {
    const { createHmac, calls } = recordingCreateHmac();
    expect(hmacSha256HexFrom(createHmac)("key", FOX_TEXT)).toBe(FOX);
    expect(calls.map((c) => [c.algorithm, c.updates])).toEqual([["sha256", [FOX_TEXT]]]);
  });
});

describe("secretBytes", () => {
  it("encodes a secret as UTF-8 once and hands out the same bytes after", () => {
    const bytes = secretBytes("clé-🔑");
    expect([...bytes]).toEqual([...new TextEncoder().encode("clé-🔑")]);
    expect(secretBytes("clé-🔑")).toBe(bytes);
  });

  it("keeps at most 1024 secrets, dropping the oldest", () => {
    const first = secretBytes("cache-test-0");
    for (let i = 1; i <= 1023; i++) secretBytes(`cache-test-${i}`);
    expect(secretBytes("cache-test-0")).toBe(first);
    secretBytes("cache-test-1024");
    expect(secretBytes("cache-test-1024")).toBe(secretBytes("cache-test-1024"));
    expect(secretBytes("cache-test-0")).not.toBe(first);
  });
});
