import { describe, expect, it } from "vitest";
import { signWebhook, signingText, verifyWebhook } from "./index.ts";
import { syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";
import { BODY, NOW, OPENSSL_SIGNATURE, SECRET, URL_AS_CALLED } from "./webhook.fixtures.ts";

describe("signingText (spec 4.9 step 4)", () => {
  it("joins timestamp, signed query string and raw body with LF", () => {
    expect(signingText("1767225600000", "a=1&b=2", '{"x":1}')).toBe(
      '1767225600000\na=1&b=2\n{"x":1}',
    );
  });

  it("leaves the second line empty for no query (rule 6)", () => {
    expect(signingText("1767225600000", "", "{}")).toBe("1767225600000\n\n{}");
  });
});

describe("signWebhook (spec 4.8)", () => {
  it("produces the signature openssl computes for the same signing text", async () => {
    const headers = await signWebhook({
      secret: SECRET,
      url: URL_AS_CALLED,
      body: BODY,
      timestamp: NOW,
    });
    expect(headers).toEqual({
      "X-Sign-Timestamp": "1767225600000",
      "X-Signature": OPENSSL_SIGNATURE,
    });
  });

  it("stamps the injected clock's time as 13 digits and signs in lowercase hex", async () => {
    const headers = await signWebhook({
      secret: SECRET,
      url: URL_AS_CALLED,
      body: BODY,
      now: () => NOW + 7,
    });
    expect(headers["X-Sign-Timestamp"]).toBe("1767225600007");
    expect(headers["X-Signature"]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs the query as given in the URL, sorted, ignoring the fragment", async () => {
    const sorted = await signWebhook({
      secret: SECRET,
      url: "https://receiver.example/hook?a=1&b=2&task=t1#frag",
      body: BODY,
      timestamp: NOW,
    });
    expect(sorted["X-Signature"]).toBe(OPENSSL_SIGNATURE);
  });

  it("signs the form-decoded reading when asked, which verifyWebhook then reports", async () => {
    const url = "https://r.example/h?q=a%20b";
    const headers = await signWebhook({
      secret: SECRET,
      url,
      body: BODY,
      timestamp: NOW,
      reading: "form-decoded",
    });
    expect(headers["X-Signature"]).toBe(syncHmacSha256Hex(SECRET, `1767225600000\nq=a b\n${BODY}`));
    const result = await verifyWebhook({
      body: BODY,
      url,
      headers,
      secrets: SECRET,
      now: () => NOW,
    });
    expect(result).toMatchObject({ ok: true, reading: "form-decoded" });
  });

  it("uses an injected synchronous hmac", async () => {
    const headers = await signWebhook({
      secret: SECRET,
      url: URL_AS_CALLED,
      body: BODY,
      timestamp: NOW,
      hmac: (secret, message) => `${secret.length}:${message.length}`,
    });
    expect(headers["X-Signature"]).toBe(
      `${SECRET.length}:${"1767225600000\na=1&b=2&task=t1\n".length + BODY.length}`,
    );
  });

  it("refuses an empty secret, with which the platform never signs (spec 5.6)", async () => {
    await expect(signWebhook({ secret: "", url: URL_AS_CALLED, body: BODY })).rejects.toThrow(
      TypeError,
    );
  });

  it("refuses a timestamp that is not a 13-digit integer", async () => {
    for (const timestamp of [1_767_225_600, NOW + 0.5, 10_000_000_000_000]) {
      await expect(
        signWebhook({ secret: SECRET, url: URL_AS_CALLED, body: BODY, timestamp }),
      ).rejects.toThrow(RangeError);
    }
  });
});
