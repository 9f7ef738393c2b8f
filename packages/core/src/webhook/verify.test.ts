import { describe, expect, it } from "vitest";
import {
  DEFAULT_WEBHOOK_TOLERANCE_MS,
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  verifyWebhook,
  type VerifyWebhookInput,
} from "./index.ts";
import {
  BODY,
  NOW,
  OPENSSL_CRLF_SIGNATURE,
  OPENSSL_SIGNATURE,
  SECRET,
  TIMESTAMP,
  literalInput,
} from "./webhook.fixtures.ts";

const withHeaders = (timestamp: string, signature: string): Partial<VerifyWebhookInput> => ({
  headers: { "X-Sign-Timestamp": timestamp, "X-Signature": signature },
});

describe("verifyWebhook: verification steps (spec 4.9)", () => {
  it("accepts a delivery whose signature was computed independently with openssl", async () => {
    expect(await verifyWebhook(literalInput())).toEqual({
      ok: true,
      timestamp: NOW,
      secretIndex: 0,
      reading: "raw",
    });
  });

  it("step 1: signs with the X-Sign-Timestamp value, so another in-range timestamp fails", async () => {
    const result = await verifyWebhook(
      literalInput(withHeaders(String(NOW + 1), OPENSSL_SIGNATURE)),
    );
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("step 2: builds the signed query from the actual URL, so its order does not matter", async () => {
    const reordered = literalInput({ url: "https://receiver.example/hook?a=1&task=t1&b=2" });
    expect(await verifyWebhook(reordered)).toMatchObject({ ok: true });
  });

  it("step 2: a changed query value is a mismatch", async () => {
    const changed = literalInput({ url: "https://receiver.example/hook?task=t2&b=2&a=1" });
    expect(await verifyWebhook(changed)).toMatchObject({
      ok: false,
      code: "WEBHOOK_SIGNATURE_MISMATCH",
    });
  });

  it("step 3: signs the raw body text, so the same JSON re-spaced is a mismatch", async () => {
    const respaced = literalInput({ body: JSON.stringify(JSON.parse(BODY), null, 1) });
    expect(await verifyWebhook(respaced)).toMatchObject({
      ok: false,
      code: WEBHOOK_SIGNATURE_MISMATCH,
    });
  });

  it("step 4: joins timestamp, query and body with LF, not CRLF", async () => {
    const crlf = literalInput(withHeaders(TIMESTAMP, OPENSSL_CRLF_SIGNATURE));
    expect(await verifyWebhook(crlf)).toMatchObject({
      ok: false,
      code: WEBHOOK_SIGNATURE_MISMATCH,
    });
  });

  it("step 5: rejects the right signature in uppercase hex (the spec says lowercase)", async () => {
    const result = await verifyWebhook(
      literalInput(withHeaders(TIMESTAMP, OPENSSL_SIGNATURE.toUpperCase())),
    );
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
    expect(!result.ok && result.message).toContain("lowercase");
  });

  it("step 6: a signature differing in one hex character is a mismatch", async () => {
    const flipped = OPENSSL_SIGNATURE.slice(0, 63) + (OPENSSL_SIGNATURE.endsWith("0") ? "1" : "0");
    const result = await verifyWebhook(literalInput(withHeaders(TIMESTAMP, flipped)));
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });
});

describe("verifyWebhook: headers", () => {
  it("reports a missing X-Sign-Timestamp by name", async () => {
    const result = await verifyWebhook(
      literalInput({ headers: { "X-Signature": OPENSSL_SIGNATURE } }),
    );
    expect(result).toMatchObject({
      ok: false,
      code: WEBHOOK_MISSING_HEADER,
      header: "X-Sign-Timestamp",
    });
  });

  it("reports a missing X-Signature by name", async () => {
    const result = await verifyWebhook(
      literalInput({ headers: { "X-Sign-Timestamp": TIMESTAMP } }),
    );
    expect(result).toMatchObject({
      ok: false,
      code: WEBHOOK_MISSING_HEADER,
      header: "X-Signature",
    });
  });

  it("treats an empty header like a missing one and names both when both are absent", async () => {
    const result = await verifyWebhook(literalInput(withHeaders("", "")));
    expect(result).toMatchObject({
      ok: false,
      code: WEBHOOK_MISSING_HEADER,
      header: "X-Sign-Timestamp",
    });
    expect(!result.ok && result.message).toContain("X-Sign-Timestamp and X-Signature");
  });

  it("accepts a Headers object with any name case", async () => {
    const headers = new Headers({
      "x-sign-timestamp": TIMESTAMP,
      "X-SIGNATURE": OPENSSL_SIGNATURE,
    });
    expect(await verifyWebhook(literalInput({ headers }))).toMatchObject({ ok: true });
  });

  it("accepts a plain record with lowercase or mixed-case names", async () => {
    const lower = { "x-sign-timestamp": TIMESTAMP, "x-signature": OPENSSL_SIGNATURE };
    const mixed = { "x-SIGN-timestamp": TIMESTAMP, "X-signature": OPENSSL_SIGNATURE };
    expect(await verifyWebhook(literalInput({ headers: lower }))).toMatchObject({ ok: true });
    expect(await verifyWebhook(literalInput({ headers: mixed }))).toMatchObject({ ok: true });
  });

  it("rejects a timestamp in seconds as malformed", async () => {
    const result = await verifyWebhook(literalInput(withHeaders("1767225600", OPENSSL_SIGNATURE)));
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_MALFORMED_TIMESTAMP });
    expect(!result.ok && result.message).toContain("seconds instead of milliseconds");
  });

  it("rejects a 13-character timestamp that is not all ASCII digits", async () => {
    for (const timestamp of ["1767225600.00", "+767225600000", "１767225600000"]) {
      const result = await verifyWebhook(literalInput(withHeaders(timestamp, OPENSSL_SIGNATURE)));
      expect(result).toMatchObject({ ok: false, code: WEBHOOK_MALFORMED_TIMESTAMP });
    }
  });

  it("reports a signature of the wrong length as a mismatch and says why", async () => {
    const result = await verifyWebhook(
      literalInput(withHeaders(TIMESTAMP, OPENSSL_SIGNATURE.slice(1))),
    );
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
    expect(!result.ok && result.message).toContain("got 63 characters");
  });
});

describe("verifyWebhook: timestamp tolerance (spec 5.7)", () => {
  const at = (now: number, toleranceMs?: number) =>
    verifyWebhook(
      literalInput({ now: () => now, ...(toleranceMs === undefined ? {} : { toleranceMs }) }),
    );

  it("defaults to 5 minutes", () => {
    expect(DEFAULT_WEBHOOK_TOLERANCE_MS).toBe(300_000);
  });

  it("accepts a timestamp exactly the tolerance old and rejects one 1 ms older", async () => {
    expect(await at(NOW + 300_000)).toMatchObject({ ok: true });
    expect(await at(NOW + 300_001)).toEqual(
      expect.objectContaining({
        ok: false,
        code: WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
        skewMs: -300_001,
      }),
    );
  });

  it("accepts a timestamp exactly the tolerance ahead and rejects one 1 ms further", async () => {
    expect(await at(NOW - 300_000)).toMatchObject({ ok: true });
    expect(await at(NOW - 300_001)).toEqual(
      expect.objectContaining({ ok: false, code: WEBHOOK_TIMESTAMP_OUT_OF_RANGE, skewMs: 300_001 }),
    );
  });

  it("uses the injected clock and a custom tolerance", async () => {
    expect(await at(NOW + 1_000, 1_000)).toMatchObject({ ok: true });
    expect(await at(NOW + 1_001, 1_000)).toMatchObject({ ok: false, skewMs: -1_001 });
  });

  it("checks the timestamp before the signature", async () => {
    const result = await verifyWebhook(
      literalInput({
        now: () => NOW + 600_000,
        headers: { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": "x" },
      }),
    );
    expect(result).toMatchObject({ code: WEBHOOK_TIMESTAMP_OUT_OF_RANGE });
  });

  it("rejects a negative tolerance", async () => {
    await expect(verifyWebhook(literalInput({ toleranceMs: -1 }))).rejects.toThrow(RangeError);
  });
});

describe("verifyWebhook: secrets", () => {
  it("accepts any of several secrets and says which matched", async () => {
    const result = await verifyWebhook(literalInput({ secrets: ["new-secret", SECRET] }));
    expect(result).toMatchObject({ ok: true, secretIndex: 1 });
  });

  it("rejects when no secret matches", async () => {
    const result = await verifyWebhook(literalInput({ secrets: ["new-secret", "other"] }));
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("does not accept a former secret, which only explains a mismatch", async () => {
    const result = await verifyWebhook(
      literalInput({ secrets: "new-secret", formerSecrets: [SECRET] }),
    );
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("throws on no secret or an empty one, a configuration error (spec 2.8, 5.6)", async () => {
    await expect(verifyWebhook(literalInput({ secrets: [] }))).rejects.toThrow(TypeError);
    await expect(verifyWebhook(literalInput({ secrets: "" }))).rejects.toThrow(/empty/);
  });
});
