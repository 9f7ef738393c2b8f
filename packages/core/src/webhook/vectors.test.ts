import { describe, expect, it } from "vitest";
import {
  canonicalQuery,
  queryOf,
  readHeader,
  readWebhookBody,
  signWebhook,
  signingText,
  verifyWebhook,
  verifyWebhookSync,
  type WebhookVerification,
} from "./index.ts";
import { recordingCreateHmac, recordingHash, syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";
import { bodyBytes, vectorCases, type VectorCase } from "./vectors.fixtures.ts";

const cases = vectorCases;

const bytesOf = bodyBytes;

/** The request as the vector gives it, with the body as its exact bytes. */
function inputOf(vector: VectorCase) {
  return {
    body: bytesOf(vector),
    url: vector.url,
    headers: vector.headers,
    secrets: vector.secrets,
    now: () => vector.now,
    toleranceMs: vector.tolerance_ms,
  };
}

/** The same request with the body as text, for the vectors whose bytes are UTF-8. */
const textCases = cases.filter((v) => v.body !== undefined);
const textInputOf = (vector: VectorCase) => ({ ...inputOf(vector), body: vector.body ?? "" });

/** The received `X-Sign-Timestamp` (header names vary in case between vectors). */
const signedTimestamp = (vector: VectorCase): string =>
  readHeader(vector.headers, "X-Sign-Timestamp") ?? "";

function expectOutcome(vector: VectorCase, result: WebhookVerification): void {
  const { expected } = vector;
  if (expected.ok) {
    expect(result).toEqual({
      ok: true,
      timestamp: Number(signedTimestamp(vector)),
      secretIndex: expected.secret_index,
      reading: expected.reading,
    });
  } else {
    expect(result).toMatchObject({ ok: false, code: expected.code });
    if (expected.skew_ms !== undefined) expect(result).toMatchObject({ skewMs: expected.skew_ms });
  }
}

describe("published test vectors (test-vectors/webhook-signatures.json)", () => {
  it("has at least 30 cases with unique ids", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(cases.map((v) => v.id)).size).toBe(cases.length);
  });

  it.each(textCases)("$id: body is the UTF-8 text of body_base64", (vector) => {
    expect(bytesOf(vector)).toEqual(new TextEncoder().encode(vector.body));
  });

  it.each(cases)("$id: canonical query, every reading", (vector) => {
    const query = queryOf(vector.url);
    expect(canonicalQuery(query)).toBe(vector.expected.canonical_raw);
    expect(canonicalQuery(query, { reading: "form-decoded" })).toBe(
      vector.expected.canonical_form_decoded,
    );
    expect(canonicalQuery(query, { reading: "percent-decoded" })).toBe(
      vector.expected.canonical_percent_decoded,
    );
  });

  it.each(cases)("$id: verifyWebhook outcome over the raw bytes", async (vector) => {
    expectOutcome(vector, await verifyWebhook(inputOf(vector)));
  });

  it.each(textCases)("$id: verifyWebhook outcome over the body text", async (vector) => {
    expectOutcome(vector, await verifyWebhook(textInputOf(vector)));
  });

  it.each(cases.filter((v) => v.expected.ok))("$id: readWebhookBody of the bytes", (vector) => {
    const reading = readWebhookBody(bytesOf(vector));
    expect(reading.ok ? "json" : reading.code).toBe(vector.expected.body_reading);
  });

  it.each(cases)("$id: verifyWebhook outcome with a synchronous hmac", async (vector) => {
    expectOutcome(vector, await verifyWebhook({ ...inputOf(vector), hmac: syncHmacSha256Hex }));
  });

  it.each(cases)("$id: verifyWebhookSync outcome, with hmac, createHmac and hash", (vector) => {
    for (const input of vector.body === undefined
      ? [inputOf(vector)]
      : [inputOf(vector), textInputOf(vector)]) {
      expectOutcome(vector, verifyWebhookSync({ ...input, hmac: syncHmacSha256Hex }));
      const { createHmac } = recordingCreateHmac();
      expectOutcome(vector, verifyWebhookSync({ ...input, createHmac }));
      const { hash } = recordingHash();
      expectOutcome(vector, verifyWebhookSync({ ...input, hash }));
    }
  });

  it.each(cases.filter((v) => v.expected.signature !== undefined))(
    "$id: signingText and signWebhook (over the bytes) reproduce the signature",
    async (vector) => {
      const { expected } = vector;
      const timestamp = signedTimestamp(vector);
      const reading = expected.reading ?? "raw";
      const canonical = {
        raw: expected.canonical_raw,
        "form-decoded": expected.canonical_form_decoded,
        "percent-decoded": expected.canonical_percent_decoded,
      }[reading];
      if (vector.body !== undefined) {
        expect(signingText(timestamp, canonical, vector.body)).toBe(expected.signing_text);
      }
      const headers = await signWebhook({
        secret: vector.secrets[expected.secret_index ?? 0] ?? "",
        url: vector.url,
        body: bytesOf(vector),
        timestamp: Number(timestamp),
        reading,
      });
      expect(headers["X-Signature"]).toBe(expected.signature);
    },
  );
});
