import { describe, expect, it } from "vitest";
import { hmacSha256HexFromHash, verifyWebhookSync, WEBHOOK_SIGNATURE_MISMATCH } from "../index.ts";
import { recordingHash, syncHmacSha256Hex } from "../sync-hmac.fixtures.ts";
import {
  BODY,
  NOW,
  OPENSSL_SIGNATURE,
  SECRET,
  TIMESTAMP,
  literalInput,
} from "../webhook.fixtures.ts";

const FOX_TEXT = "The quick brown fox jumps over the lazy dog";
const bytes = (byte: number, count: number) => new Uint8Array(count).fill(byte);
const text = (codes: number[]) => String.fromCharCode(...codes);

describe("hmacSha256HexFromHash (HMAC-SHA256 on a one-shot hash such as node:crypto's)", () => {
  const hmac = hmacSha256HexFromHash(recordingHash().hash);

  // RFC 4231 section 4, the cases whose keys are text (core's secrets are strings).
  it("gives RFC 4231 test case 1", () => {
    expect(hmac(text(Array<number>(20).fill(0x0b)), "Hi There")).toBe(
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    );
  });

  it("gives RFC 4231 test case 2 (a key shorter than the hash)", () => {
    expect(hmac("Jefe", "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("gives RFC 4231 test case 4 (a byte message)", () => {
    const key = text(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(hmac(key, bytes(0xcd, 50))).toBe(
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    );
  });

  // Expected values from `openssl dgst -sha256 -hmac <key>`.
  it("uses a key of exactly one block as it is", () => {
    expect(hmac("k".repeat(64), FOX_TEXT)).toBe(
      "bbbf90167fe46c7a3fa5b549325ad6428715eae339737730860fcea2c3f43d5c",
    );
  });

  it("hashes a key longer than one block first", () => {
    expect(hmac("overture-".repeat(12), FOX_TEXT)).toBe(
      "66f02b759332ed258a21da89842087358e290e0f2a0f0f03e027104e5cc112a1",
    );
  });
});

describe("verifyWebhookSync with hash (node:crypto's one-shot shape)", () => {
  const delivery = (overrides: Parameters<typeof literalInput>[0] = {}) => {
    const { hmac: _ignored, ...options } = literalInput(overrides);
    return options;
  };
  /** Headers signing `body` at `url` with `secret`, by the fixture's own HMAC. */
  const signed = (body: string | Uint8Array, url: string, secret = SECRET) => {
    const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
    const sorted = query.split("&").sort().join("&");
    const head = new TextEncoder().encode(`${TIMESTAMP}\n${sorted}\n`);
    const tail = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const message = new Uint8Array(head.length + tail.length);
    message.set(head);
    message.set(tail, head.length);
    return { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": syncHmacSha256Hex(secret, message) };
  };

  it("accepts the delivery signed with openssl, with two hashes", () => {
    const { hash, calls } = recordingHash();
    expect(verifyWebhookSync({ ...delivery(), hash })).toEqual({
      ok: true,
      timestamp: NOW,
      secretIndex: 0,
      reading: "raw",
    });
    expect(calls.map((c) => [c.algorithm, c.encoding])).toEqual([
      ["sha256", "binary"],
      ["sha256", "binary"],
    ]);
  });

  it("hashes the padded key, the signing text and the body, without a separator", () => {
    const { hash, calls } = recordingHash();
    verifyWebhookSync({ ...delivery({ body: new TextEncoder().encode(BODY) }), hash });
    const inner = calls[0]?.data ?? new Uint8Array();
    expect(inner).toHaveLength(64 + `${TIMESTAMP}\na=1&b=2&task=t1\n${BODY}`.length);
    expect(new TextDecoder().decode(inner.subarray(64))).toBe(
      `${TIMESTAMP}\na=1&b=2&task=t1\n${BODY}`,
    );
    expect(calls[1]?.data).toHaveLength(96);
  });

  it("accepts a body and a query beyond ASCII, as text and as bytes", () => {
    const body = '{"event_id":"é1","note":"音乐 🎵"}';
    const url = "https://receiver.example/hook?name=café&k=1";
    const headers = signed(body, url);
    const { hash } = recordingHash();
    const input = delivery({ url, headers, body });
    expect(verifyWebhookSync({ ...input, hash })).toMatchObject({ ok: true });
    const asBytes = { ...input, body: new TextEncoder().encode(body), hash };
    expect(verifyWebhookSync(asBytes)).toMatchObject({ ok: true });
  });

  it("verifies a body larger than its reused buffer, and a small one after it", () => {
    const url = "https://receiver.example/hook?k=1";
    const large = `{"pad":"${"x".repeat(70_000)}"}`;
    const { hash } = recordingHash();
    const big = delivery({ url, body: large, headers: signed(large, url) });
    expect(verifyWebhookSync({ ...big, hash })).toMatchObject({ ok: true });
    const wrong = delivery({ url, body: `${large} `, headers: signed(large, url) });
    expect(verifyWebhookSync({ ...wrong, hash })).toMatchObject({ ok: false });
    expect(verifyWebhookSync({ ...delivery(), hash })).toMatchObject({ ok: true });
  });

  it("throws a TypeError when the hash answers hex instead of binary", () => {
    const { hash } = recordingHash();
    const hexHash = (algorithm: "sha256", data: Uint8Array) =>
      Array.from(hash(algorithm, data, "binary"), (c) =>
        c.charCodeAt(0).toString(16).padStart(2, "0"),
      ).join("");
    expect(() => verifyWebhookSync({ ...delivery(), hash: hexHash })).toThrow(/"binary"/);
  });

  it("rejects the right signature over another body, and in uppercase", () => {
    const { hash } = recordingHash();
    const other = verifyWebhookSync({ ...delivery({ body: `${BODY} ` }), hash });
    expect(other).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
    const upper = { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": OPENSSL_SIGNATURE.toUpperCase() };
    const shouted = verifyWebhookSync({ ...delivery({ headers: upper }), hash });
    expect(shouted).toMatchObject({ ok: false, code: WEBHOOK_SIGNATURE_MISMATCH });
  });

  it("tries the other secrets, long ones too, and diagnoses a miss like the hmac form", () => {
    const { hash } = recordingHash();
    const long = "overture-".repeat(12);
    const rotated = delivery({ secrets: [long, SECRET] });
    expect(verifyWebhookSync({ ...rotated, hash })).toMatchObject({ ok: true, secretIndex: 1 });
    const headers = signed(BODY, "https://receiver.example/hook?task=t1&b=2&a=1", long);
    expect(verifyWebhookSync({ ...delivery({ secrets: long, headers }), hash })).toMatchObject({
      ok: true,
    });
    const former = delivery({ secrets: "new-secret", formerSecrets: [SECRET] });
    expect(verifyWebhookSync({ ...former, hash })).toEqual(
      verifyWebhookSync({ ...former, hmac: syncHmacSha256Hex }),
    );
  });

  it("derives a secret's padded keys once, for up to 1024 secrets", () => {
    const { hash, calls } = recordingHash();
    const hmac = hmacSha256HexFromHash(hash);
    const long = "pads-cache-".repeat(7); // over one block: deriving its pads hashes it (3 calls)
    hmac(long, FOX_TEXT);
    hmac(long, FOX_TEXT);
    expect(calls).toHaveLength(3 + 2);
    for (let i = 0; i < 1023; i++) hmac(`pads-cache-${i}`, FOX_TEXT);
    calls.length = 0;
    hmac(long, FOX_TEXT);
    expect(calls).toHaveLength(2);
    hmac("pads-cache-1023", FOX_TEXT); // the 1025th secret: the oldest, `long`, is dropped
    calls.length = 0;
    hmac(long, FOX_TEXT);
    expect(calls).toHaveLength(3);
  });
});
