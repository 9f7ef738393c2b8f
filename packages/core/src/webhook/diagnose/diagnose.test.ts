import { describe, expect, it } from "vitest";
import { verifyWebhook, type SignatureDiagnosis, type VerifyWebhookInput } from "../index.ts";
import { syncHmacSha256Hex } from "../sync-hmac.fixtures.ts";
import {
  BODY,
  OPENSSL_SIGNATURE,
  OPENSSL_UNSORTED_SIGNATURE,
  SECRET,
  TIMESTAMP,
  countingHmac,
  literalInput,
  signedInput,
} from "../webhook.fixtures.ts";

async function diagnosesOf(input: VerifyWebhookInput): Promise<readonly SignatureDiagnosis[]> {
  const result = await verifyWebhook(input);
  if (result.ok) throw new Error("expected a mismatch");
  expect(result.code).toBe("WEBHOOK_SIGNATURE_MISMATCH");
  expect(result.message).not.toContain(SECRET);
  return result.diagnoses ?? [];
}

const codes = (diagnoses: readonly SignatureDiagnosis[]) => diagnoses.map((d) => d.code);

describe("verifyWebhook diagnostics on a mismatch (spec 7 common causes)", () => {
  it("names an outdated secret from formerSecrets by position", async () => {
    const diagnoses = await diagnosesOf(
      literalInput({ secrets: "new-secret", formerSecrets: ["older", SECRET] }),
    );
    expect(codes(diagnoses)).toEqual(["FORMER_SECRET_MATCHES"]);
    expect(diagnoses[0]?.message).toContain("formerSecrets[1]");
  });

  it("spots a stored secret with surrounding whitespace", async () => {
    const diagnoses = await diagnosesOf(literalInput({ secrets: ["other", ` ${SECRET}\n`] }));
    expect(codes(diagnoses)).toEqual(["SECRET_WHITESPACE"]);
    expect(diagnoses[0]?.message).toContain("secrets[1]");
  });

  it("spots a body re-serialised with JSON.stringify after parsing", async () => {
    const sent = '{"event_id": "e1", "status": "success"}';
    const input = await signedInput({ body: sent }, { body: JSON.stringify(JSON.parse(sent)) });
    const diagnoses = await diagnosesOf(input);
    expect(codes(diagnoses)).toEqual(["BODY_RESERIALISED"]);
    expect(diagnoses[0]?.message).toContain("Python");
  });

  it("spots a body the signer sent compact but the receiver pretty-printed", async () => {
    const input = await signedInput({}, { body: JSON.stringify(JSON.parse(BODY), null, 2) });
    expect(codes(await diagnosesOf(input))).toEqual(["BODY_RESERIALISED"]);
  });

  it("spots a body signed pretty-printed with a 2-space indent", async () => {
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    const input = await signedInput({ body: pretty }, { body: BODY });
    const diagnoses = await diagnosesOf(input);
    expect(diagnoses[0]?.message).toContain("2-space indent");
  });

  it("spots a trailing newline added or removed", async () => {
    const added = await diagnosesOf(literalInput({ body: `${BODY}\n` }));
    expect(added[0]?.message).toContain("without its trailing newline");
    const removed = await diagnosesOf(await signedInput({ body: `${BODY}\n` }, { body: BODY }));
    expect(removed[0]?.message).toContain("trailing newline added");
  });

  it("spots a query the signer did not sort, checked against an openssl literal", async () => {
    const input = literalInput({
      headers: { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": OPENSSL_UNSORTED_SIGNATURE },
    });
    const diagnoses = await diagnosesOf(input);
    expect(codes(diagnoses)).toEqual(["QUERY_UNSORTED_MATCHES"]);
    expect(diagnoses[0]?.message).toContain("as given");
  });

  it("spots a query sorted by locale instead of code point", async () => {
    // A signer that sorts with localeCompare signs "a=1&B=2"; code point order is "B=2&a=1".
    const signature = syncHmacSha256Hex(SECRET, `${TIMESTAMP}\na=1&B=2\n${BODY}`);
    const input = literalInput({
      url: "https://r.example/h?B=2&a=1",
      headers: { "X-Sign-Timestamp": TIMESTAMP, "X-Signature": signature },
    });
    const diagnoses = await diagnosesOf(input);
    expect(codes(diagnoses)).toEqual(["QUERY_UNSORTED_MATCHES"]);
    expect(diagnoses[0]?.message).toContain("locale");
  });

  it("spots a URL the platform called instead, from alternateUrls", async () => {
    const input = await signedInput(
      { url: "https://public.example/hook?task=t1&src=platform" },
      {
        url: "http://127.0.0.1:8787/hook?task=t1",
        alternateUrls: ["https://x.example/", "https://public.example/hook?task=t1&src=platform"],
      },
    );
    const diagnoses = await diagnosesOf(input);
    expect(codes(diagnoses)).toEqual(["URL_MISMATCH"]);
    expect(diagnoses[0]?.message).toContain("alternateUrls[1]");
  });

  it("spots a signature over the URL without its query", async () => {
    const input = await signedInput(
      { url: "https://r.example/hook" },
      { url: "https://r.example/hook?added=1" },
    );
    const diagnoses = await diagnosesOf(input);
    expect(codes(diagnoses)).toEqual(["URL_MISMATCH"]);
    expect(diagnoses[0]?.message).toContain("without its query");
  });

  it("lists the common causes and no diagnosis when nothing single explains it", async () => {
    const result = await verifyWebhook(literalInput({ secrets: "unrelated" }));
    expect(result).toMatchObject({ ok: false, code: "WEBHOOK_SIGNATURE_MISMATCH" });
    expect(result.ok ? undefined : result.diagnoses).toBeUndefined();
    expect(result.ok ? "" : result.message).toContain("common causes");
  });

  it("never puts a secret or the expected signature in a message", async () => {
    const result = await verifyWebhook(
      literalInput({ secrets: "new-secret", formerSecrets: [SECRET], body: `${BODY}\n` }),
    );
    const text = JSON.stringify(result);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("new-secret");
    expect(text).not.toContain(OPENSSL_SIGNATURE.slice(0, 16));
  });

  it("does no diagnostic work on success or when turned off", async () => {
    const success = countingHmac();
    await verifyWebhook(literalInput({ hmac: success.hmac, formerSecrets: ["a", "b"] }));
    expect(success.calls()).toBe(1);
    const off = countingHmac();
    const result = await verifyWebhook(
      literalInput({ body: `${BODY}\n`, hmac: off.hmac, diagnose: false }),
    );
    expect(off.calls()).toBe(1);
    expect(result.ok ? undefined : result.diagnoses).toBeUndefined();
  });
});
