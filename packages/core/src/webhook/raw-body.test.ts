import { describe, expect, it } from "vitest";
import {
  WEBHOOK_BODY_NOT_JSON,
  WEBHOOK_BODY_NOT_UTF8,
  WEBHOOK_SIGNATURE_MISMATCH,
  readWebhookBody,
  signWebhook,
  verifyWebhook,
  verifyWebhookSync,
  type VerifyWebhookOptions,
} from "./index.ts";
import { recordingCreateHmac, syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";
import { BODY, NOW, SECRET, TIMESTAMP, URL_AS_CALLED } from "./webhook.fixtures.ts";

// Spec 4.9 step 3: the signature covers the raw body. These bodies are bytes a text decoder
// would change: a byte-order mark (dropped by default) and invalid UTF-8 (replaced by U+FFFD).
const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
const bytes = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};
const BOM_BODY = concat(BOM, bytes(BODY));
// `{"event_id":"e1","status":"succ<0xff>ss"}`: JSON-shaped, but not UTF-8.
const INVALID_UTF8 = concat(
  bytes('{"event_id":"e1","status":"succ'),
  Uint8Array.of(0xff),
  bytes('ss"}'),
);

/** The HMAC of the signing text over exact bytes, computed without core (spec 4.9 steps 4-5). */
function independentSignature(body: Uint8Array, query = "a=1&b=2&task=t1"): string {
  const head = bytes(`${TIMESTAMP}\n${query}\n`);
  return syncHmacSha256Hex(SECRET, concat(head, body));
}

function delivery(
  body: VerifyWebhookOptions["body"],
  signedOver: Uint8Array,
): VerifyWebhookOptions {
  return {
    body,
    url: URL_AS_CALLED,
    headers: { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": independentSignature(signedOver) },
    secrets: SECRET,
    now: () => NOW,
  };
}

describe("verification over the raw bytes (spec 4.9 step 3)", () => {
  it("accepts a body given as a Uint8Array or an ArrayBuffer", async () => {
    const body = bytes(BODY);
    expect(await verifyWebhook(delivery(body, body))).toMatchObject({ ok: true });
    expect(await verifyWebhook(delivery(body.slice().buffer, body))).toMatchObject({ ok: true });
  });

  it("accepts a BOM-prefixed body signed over its bytes", async () => {
    expect(await verifyWebhook(delivery(BOM_BODY, BOM_BODY))).toMatchObject({ ok: true });
  });

  it("refuses a BOM added in front of a validly signed body", async () => {
    const result = await verifyWebhook(delivery(BOM_BODY, bytes(BODY)));
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("explains a body decoded before verification, which dropped its BOM", async () => {
    const result = await verifyWebhook(delivery(BODY, BOM_BODY));
    expect(result).toMatchObject({
      ok: false,
      diagnoses: [expect.objectContaining({ code: "BODY_RESERIALISED" })],
    });
    expect(result.ok ? "" : result.message).toContain("byte-order mark");
  });

  it("accepts a correctly signed body that is not valid UTF-8: the signature is over bytes", async () => {
    expect(await verifyWebhook(delivery(INVALID_UTF8, INVALID_UTF8))).toMatchObject({ ok: true });
  });

  it("refuses the same bytes once decoded with replacement characters", async () => {
    const decoded = new TextDecoder().decode(INVALID_UTF8);
    const result = await verifyWebhook(delivery(decoded, INVALID_UTF8));
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("verifies bytes synchronously too, with hmac and with createHmac", () => {
    for (const body of [BOM_BODY, INVALID_UTF8]) {
      const input = delivery(body, body);
      expect(verifyWebhookSync({ ...input, hmac: syncHmacSha256Hex })).toMatchObject({ ok: true });
      const { createHmac, calls } = recordingCreateHmac();
      expect(verifyWebhookSync({ ...input, createHmac })).toMatchObject({ ok: true });
      expect(calls[0]?.updates[1]).toBe(body);
    }
    const added = delivery(BOM_BODY, bytes(BODY));
    const { createHmac } = recordingCreateHmac();
    expect(verifyWebhookSync({ ...added, createHmac })).toMatchObject({
      ok: false,
      code: WEBHOOK_SIGNATURE_MISMATCH,
    });
  });

  it("signs bytes as given, so signWebhook and verifyWebhook agree on them", async () => {
    const headers = await signWebhook({
      secret: SECRET,
      url: URL_AS_CALLED,
      body: INVALID_UTF8,
      timestamp: NOW,
    });
    expect(headers["X-Signature"]).toBe(independentSignature(INVALID_UTF8));
    const viaBuffer = await signWebhook({
      secret: SECRET,
      url: URL_AS_CALLED,
      body: BOM_BODY.slice().buffer,
      timestamp: NOW,
    });
    expect(viaBuffer["X-Signature"]).toBe(independentSignature(BOM_BODY));
  });
});

describe("readWebhookBody: decoding after verification", () => {
  it("decodes UTF-8 bytes and parses the JSON", () => {
    expect(readWebhookBody(bytes(BODY))).toEqual({
      ok: true,
      text: BODY,
      json: JSON.parse(BODY) as unknown,
    });
  });

  it("drops a leading byte-order mark, as a UTF-8 decoder does", () => {
    expect(readWebhookBody(BOM_BODY)).toMatchObject({ ok: true, text: BODY });
    expect(readWebhookBody(`\uFEFF${BODY}`)).toMatchObject({ ok: true, text: BODY });
  });

  it("refuses invalid UTF-8 with its own code instead of replacing it", () => {
    const result = readWebhookBody(INVALID_UTF8);
    expect(result).toMatchObject({ ok: false, code: WEBHOOK_BODY_NOT_UTF8 });
    expect(result.ok ? "" : result.message).toMatch(/UTF-8/);
  });

  it("refuses text that is not JSON with another code", () => {
    for (const body of ["", "event=done", bytes('{"event_id":')]) {
      expect(readWebhookBody(body)).toMatchObject({ ok: false, code: WEBHOOK_BODY_NOT_JSON });
    }
  });

  it("reads an ArrayBuffer like the bytes it holds", () => {
    expect(readWebhookBody(bytes(BODY).slice().buffer)).toMatchObject({ ok: true, text: BODY });
  });
});
