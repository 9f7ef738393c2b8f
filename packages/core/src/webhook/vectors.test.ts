import { describe, expect, it } from "vitest";
import vectorFile from "../../test-vectors/webhook-signatures.json" with { type: "json" };
import {
  canonicalQuery,
  queryOf,
  signWebhook,
  signingText,
  verifyWebhook,
  verifyWebhookSync,
  type QueryReading,
  type WebhookFailureCode,
  type WebhookVerification,
} from "./index.ts";
import { recordingCreateHmac, syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";

/** One case of test-vectors/webhook-signatures.json (format: test-vectors/README.md). */
interface VectorCase {
  id: string;
  description: string;
  secrets: string[];
  url: string;
  body: string;
  headers: Record<string, string>;
  now: number;
  tolerance_ms: number;
  expected: {
    ok: boolean;
    code?: WebhookFailureCode;
    secret_index?: number;
    reading?: QueryReading;
    skew_ms?: number;
    canonical_raw: string;
    canonical_form_decoded: string;
    signing_text?: string;
    signature?: string;
  };
}

const cases = (vectorFile as unknown as { cases: VectorCase[] }).cases;

function inputOf(vector: VectorCase) {
  return {
    body: vector.body,
    url: vector.url,
    headers: vector.headers,
    secrets: vector.secrets,
    now: () => vector.now,
    toleranceMs: vector.tolerance_ms,
  };
}

/** The timestamp line of the signing text (header names vary in case between vectors). */
const signedTimestamp = (vector: VectorCase): string =>
  (vector.expected.signing_text ?? "").slice(0, 13);

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

  it.each(cases)("$id: canonical query, both readings", (vector) => {
    const query = queryOf(vector.url);
    expect(canonicalQuery(query)).toBe(vector.expected.canonical_raw);
    expect(canonicalQuery(query, { reading: "form-decoded" })).toBe(
      vector.expected.canonical_form_decoded,
    );
  });

  it.each(cases)("$id: verifyWebhook outcome", async (vector) => {
    expectOutcome(vector, await verifyWebhook(inputOf(vector)));
  });

  it.each(cases)("$id: verifyWebhook outcome with a synchronous hmac", async (vector) => {
    expectOutcome(vector, await verifyWebhook({ ...inputOf(vector), hmac: syncHmacSha256Hex }));
  });

  it.each(cases)("$id: verifyWebhookSync outcome, with hmac and with createHmac", (vector) => {
    expectOutcome(vector, verifyWebhookSync({ ...inputOf(vector), hmac: syncHmacSha256Hex }));
    const { createHmac } = recordingCreateHmac();
    expectOutcome(vector, verifyWebhookSync({ ...inputOf(vector), createHmac }));
  });

  it.each(cases.filter((v) => v.expected.signature !== undefined))(
    "$id: signingText and signWebhook reproduce the signature",
    async (vector) => {
      const { expected } = vector;
      const timestamp = signedTimestamp(vector);
      const reading = expected.reading ?? "raw";
      const canonical =
        reading === "raw" ? expected.canonical_raw : expected.canonical_form_decoded;
      expect(signingText(timestamp, canonical, vector.body)).toBe(expected.signing_text);
      const headers = await signWebhook({
        secret: vector.secrets[expected.secret_index ?? 0] ?? "",
        url: vector.url,
        body: vector.body,
        timestamp: Number(timestamp),
        reading,
      });
      expect(headers["X-Signature"]).toBe(expected.signature);
    },
  );
});
