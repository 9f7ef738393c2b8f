import { describe, expect, it } from "vitest";
import {
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  verifyWebhook,
  verifyWebhookSync,
  type HmacSha256HexSync,
  type VerifyWebhookOptions,
} from "../index.ts";
import { recordingCreateHmac, syncHmacSha256Hex } from "../sync-hmac.fixtures.ts";
import {
  BODY,
  NOW,
  OPENSSL_SIGNATURE,
  SECRET,
  TIMESTAMP,
  countingHmac,
  literalInput,
} from "../webhook.fixtures.ts";

/** The literal delivery of the fixtures without an hmac: each test picks one. */
const delivery = (overrides: Partial<VerifyWebhookOptions> = {}): VerifyWebhookOptions => {
  const { hmac: _ignored, ...options } = literalInput(overrides);
  return options;
};

describe("verifyWebhookSync (spec 4.9, 5.7)", () => {
  it("returns the outcome itself, not a promise", () => {
    const result = verifyWebhookSync({ ...delivery(), hmac: syncHmacSha256Hex });
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ ok: true, timestamp: NOW, secretIndex: 0, reading: "raw" });
  });

  it("computes exactly one HMAC for a valid delivery", () => {
    const counter = countingHmac();
    verifyWebhookSync({ ...delivery(), hmac: counter.hmac });
    expect(counter.calls()).toBe(1);
  });

  it("rejects a mismatch with the same code as verifyWebhook", () => {
    const result = verifyWebhookSync({ ...delivery({ body: "{}" }), hmac: syncHmacSha256Hex });
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("checks the headers and the timestamp before any HMAC", () => {
    const counter = countingHmac();
    const { hmac } = counter;
    const missing = verifyWebhookSync({ ...delivery({ headers: {} }), hmac });
    const stale = verifyWebhookSync({ ...delivery({ now: () => NOW + 300_001 }), hmac });
    expect(missing).toMatchObject({ code: WEBHOOK_MISSING_HEADER });
    expect(stale).toMatchObject({ code: WEBHOOK_TIMESTAMP_OUT_OF_RANGE, skewMs: -300_001 });
    expect(counter.calls()).toBe(0);
  });

  it("computes the diagnostics of a mismatch synchronously too", () => {
    const input = delivery({ secrets: "new-secret", formerSecrets: [SECRET] });
    const result = verifyWebhookSync({ ...input, hmac: syncHmacSha256Hex });
    expect(result).toMatchObject({
      ok: false,
      diagnoses: [expect.objectContaining({ code: "FORMER_SECRET_MATCHES" })],
    });
  });

  it("gives the same outcome, message and diagnoses as verifyWebhook", async () => {
    const input = delivery({ secrets: ["a", "b"], formerSecrets: [SECRET], body: `${BODY}\n` });
    const sync = verifyWebhookSync({ ...input, hmac: syncHmacSha256Hex });
    expect(sync).toEqual(await verifyWebhook({ ...input, hmac: syncHmacSha256Hex }));
  });

  it("throws configuration errors at the call site", () => {
    const hmac = syncHmacSha256Hex;
    expect(() => verifyWebhookSync({ ...delivery({ secrets: [] }), hmac })).toThrow(TypeError);
    expect(() => verifyWebhookSync({ ...delivery({ secrets: "" }), hmac })).toThrow(/empty/);
    expect(() => verifyWebhookSync({ ...delivery({ toleranceMs: -1 }), hmac })).toThrow(RangeError);
  });

  it("throws a TypeError naming the choices when no HMAC is given", () => {
    const none = delivery() as unknown as Parameters<typeof verifyWebhookSync>[0];
    expect(() => verifyWebhookSync(none)).toThrow(/`hash`.*`createHmac` or `hmac`/);
    const lacking = { ...delivery(), hash: undefined } as unknown as typeof none;
    expect(() => verifyWebhookSync(lacking)).toThrow(TypeError);
  });

  it("throws a TypeError when the hmac answers with a promise", () => {
    const hmac = ((secret: string, text: string) =>
      Promise.resolve(syncHmacSha256Hex(secret, text))) as unknown as HmacSha256HexSync;
    expect(() => verifyWebhookSync({ ...delivery(), hmac })).toThrow(/returns a string/);
  });
});

describe("verifyWebhookSync with createHmac (node:crypto's shape)", () => {
  it("accepts the delivery signed with openssl", () => {
    const { createHmac } = recordingCreateHmac();
    expect(verifyWebhookSync({ ...delivery(), createHmac })).toMatchObject({
      ok: true,
      secretIndex: 0,
    });
  });

  it("feeds a byte body after the signing text's head, never copied", () => {
    const { createHmac, calls } = recordingCreateHmac();
    const bytes = new TextEncoder().encode(BODY);
    expect(verifyWebhookSync({ ...delivery({ body: bytes }), createHmac })).toMatchObject({
      ok: true,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.algorithm).toBe("sha256");
    expect(calls[0]?.updates).toEqual([`${TIMESTAMP}\na=1&b=2&task=t1\n`, bytes]);
    expect(calls[0]?.updates[1]).toBe(bytes);
  });

  it("feeds a text body joined to the head, in one update", () => {
    const { createHmac, calls } = recordingCreateHmac();
    verifyWebhookSync({ ...delivery(), createHmac });
    expect(calls[0]?.updates).toEqual([`${TIMESTAMP}\na=1&b=2&task=t1\n${BODY}`]);
  });

  it("reads the MAC as binary and compares it with the hex signature", () => {
    const { createHmac, calls } = recordingCreateHmac();
    expect(verifyWebhookSync({ ...delivery(), createHmac })).toMatchObject({ ok: true });
    expect(calls[0]?.digests).toEqual(["binary"]);
    const wrong = { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": flipLast(OPENSSL_SIGNATURE) };
    const result = verifyWebhookSync({ ...delivery({ headers: wrong }), createHmac });
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("still verifies with an HMAC that answers hex whatever it is asked", () => {
    const { createHmac } = recordingCreateHmac({ hexOnly: true });
    expect(verifyWebhookSync({ ...delivery(), createHmac })).toMatchObject({ ok: true });
    const wrong = { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": flipLast(OPENSSL_SIGNATURE) };
    const result = verifyWebhookSync({ ...delivery({ headers: wrong }), createHmac });
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("rejects the right signature in uppercase (the spec says lowercase)", () => {
    const { createHmac } = recordingCreateHmac();
    const upper = { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": OPENSSL_SIGNATURE.toUpperCase() };
    const result = verifyWebhookSync({ ...delivery({ headers: upper }), createHmac });
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("passes the secret as its UTF-8 bytes, encoded once and reused", () => {
    const { createHmac, calls } = recordingCreateHmac();
    const secret = "sécret-🔑";
    const signature = syncHmacSha256Hex(secret, `${TIMESTAMP}\na=1&b=2&task=t1\n${BODY}`);
    const headers = { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": signature };
    const input = { ...delivery({ secrets: secret, headers }), createHmac };
    expect(verifyWebhookSync(input)).toMatchObject({ ok: true });
    expect(verifyWebhookSync(input)).toMatchObject({ ok: true });
    expect([...(calls[0]?.key ?? [])]).toEqual([...new TextEncoder().encode(secret)]);
    expect(calls[1]?.key).toBe(calls[0]?.key);
  });

  it("tries the other secrets and reports a mismatch with diagnoses like the hmac form", () => {
    const { createHmac } = recordingCreateHmac();
    const rotated = delivery({ secrets: ["new-secret", SECRET] });
    expect(verifyWebhookSync({ ...rotated, createHmac })).toMatchObject({
      ok: true,
      secretIndex: 1,
    });
    const former = delivery({ secrets: "new-secret", formerSecrets: [SECRET] });
    expect(verifyWebhookSync({ ...former, createHmac })).toEqual(
      verifyWebhookSync({ ...former, hmac: syncHmacSha256Hex }),
    );
  });

  it("rejects the right signature computed over another body", () => {
    const { createHmac } = recordingCreateHmac();
    const headers = { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": OPENSSL_SIGNATURE };
    const result = verifyWebhookSync({ ...delivery({ headers, body: `${BODY} ` }), createHmac });
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });
});

/** `signature` with its last hex digit changed. */
function flipLast(signature: string): string {
  return signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0");
}
