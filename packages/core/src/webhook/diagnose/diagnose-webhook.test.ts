import { describe, expect, it } from "vitest";
import { diagnoseWebhook } from "../index.ts";
import { NOW, SECRET, literalInput } from "../webhook.fixtures.ts";

const rules = (checks: readonly { rule: string; ok: boolean }[]) =>
  checks.map((c) => `${c.rule}:${c.ok ? "ok" : "fail"}`);

describe("diagnoseWebhook: every rule of one delivery", () => {
  it("passes every rule of a valid delivery whose body is JSON", async () => {
    const diagnosis = await diagnoseWebhook(literalInput());
    expect(diagnosis.ok).toBe(true);
    expect(rules(diagnosis.checks)).toEqual([
      "headers:ok",
      "timestamp:ok",
      "window:ok",
      "signature:ok",
      "body:ok",
    ]);
    expect(diagnosis.verification).toMatchObject({ ok: true });
  });

  it("still checks the signature of a delivery outside the window", async () => {
    const diagnosis = await diagnoseWebhook(literalInput({ now: () => NOW + 3_600_000 }));
    expect(diagnosis.ok).toBe(false);
    expect(rules(diagnosis.checks)).toEqual([
      "headers:ok",
      "timestamp:ok",
      "window:fail",
      "signature:ok",
      "body:ok",
    ]);
    expect(diagnosis.checks[2]?.code).toBe("WEBHOOK_TIMESTAMP_OUT_OF_RANGE");
    expect(diagnosis.verification).toMatchObject({ code: "WEBHOOK_TIMESTAMP_OUT_OF_RANGE" });
  });

  it("names the cause of a mismatch without the secret", async () => {
    const diagnosis = await diagnoseWebhook(
      literalInput({ secrets: "new-secret", formerSecrets: [SECRET] }),
    );
    const signature = diagnosis.checks.find((c) => c.rule === "signature");
    expect(signature).toMatchObject({ ok: false, code: "WEBHOOK_SIGNATURE_MISMATCH" });
    expect(signature?.diagnoses?.[0]?.code).toBe("FORMER_SECRET_MATCHES");
    expect(JSON.stringify(diagnosis)).not.toContain(SECRET);
  });

  it("reports a missing header and stops there", async () => {
    const diagnosis = await diagnoseWebhook(literalInput({ headers: {} }));
    expect(rules(diagnosis.checks)).toEqual(["headers:fail"]);
    expect(diagnosis.checks[0]?.code).toBe("WEBHOOK_MISSING_HEADER");
  });

  it("reports a malformed timestamp and stops there", async () => {
    const headers = { "X-Sign-Timestamp": "1767225600", "X-Signature": "ab" };
    const diagnosis = await diagnoseWebhook(literalInput({ headers }));
    expect(rules(diagnosis.checks)).toEqual(["headers:ok", "timestamp:fail"]);
  });
});
