import { describe, expect, it } from "vitest";
import { callbackKey } from "./callback-key.ts";

describe("callbackKey", () => {
  it.each([
    ["the key", "http://x/webhooks/platform?k=abc_DEF-123"],
    ["the first of two keys", "http://x/webhooks/platform?k=first&k=second"],
    ["a key after other parameters", "http://x/webhooks/platform?a=1&k=abc&b=2"],
    ["no query", "http://x/webhooks/platform"],
    ["a query without a key", "http://x/webhooks/platform?kk=1&ak=2"],
    ["an empty key", "http://x/webhooks/platform?k="],
    ["a key without =", "http://x/webhooks/platform?k&k=2"],
    ["an escaped key", "http://x/webhooks/platform?k=a%2Bb+c"],
    ["an escaped name", "http://x/webhooks/platform?%6B=abc"],
    ["a fragment", "http://x/webhooks/platform?k=abc#k=other"],
    ["a key with = in it", "http://x/webhooks/platform?k=a=b"],
  ])("reads %s as URLSearchParams does", (_, url) => {
    expect(callbackKey(url)).toBe(new URL(url).searchParams.get("k"));
  });
});
