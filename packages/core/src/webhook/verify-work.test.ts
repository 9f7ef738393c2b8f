import { describe, expect, it } from "vitest";
import { WEBHOOK_SIGNATURE_MISMATCH, verifyWebhook } from "./index.ts";
import { syncHmacSha256Hex } from "./sync-hmac.fixtures.ts";
import { SECRET, countingHmac, literalInput, signedInput } from "./webhook.fixtures.ts";

describe("verifyWebhook: HMAC work", () => {
  it("accepts a synchronous injected hmac", async () => {
    const result = await verifyWebhook(literalInput({ hmac: syncHmacSha256Hex }));
    expect(result).toMatchObject({ ok: true });
  });

  it("computes exactly one HMAC for a valid delivery", async () => {
    const counter = countingHmac();
    await verifyWebhook(literalInput({ hmac: counter.hmac }));
    expect(counter.calls()).toBe(1);
  });

  it("computes one HMAC for a raw-signed query containing % and +", async () => {
    const counter = countingHmac();
    const input = await signedInput(
      { url: "https://r.example/h?q=a+b%20c" },
      { hmac: counter.hmac },
    );
    expect(await verifyWebhook(input)).toMatchObject({ ok: true, reading: "raw" });
    expect(counter.calls()).toBe(1);
  });

  it("tries the form-decoded reading second, when the query contains % or +", async () => {
    const url = "https://r.example/h?q=a+b%20c";
    const counter = countingHmac();
    const input = await signedInput(
      { url: "https://r.example/h?q=a b c" },
      { url, hmac: counter.hmac },
    );
    expect(await verifyWebhook(input)).toMatchObject({ ok: true, reading: "form-decoded" });
    expect(counter.calls()).toBe(2);
  });

  it("tries the percent-decoded reading third, when the query contains both % and +", async () => {
    const url = "https://r.example/h?q=a+b%20c";
    const counter = countingHmac();
    const input = await signedInput(
      { url: "https://r.example/h?q=a+b c" },
      { url, hmac: counter.hmac },
    );
    expect(await verifyWebhook(input)).toMatchObject({ ok: true, reading: "percent-decoded" });
    expect(counter.calls()).toBe(3);
  });

  it("computes no percent-decoded HMAC for a query with + but no %", async () => {
    const counter = countingHmac();
    const input = await signedInput(
      { url: "https://r.example/h?q=other" },
      { url: "https://r.example/h?q=a+c", hmac: counter.hmac, diagnose: false },
    );
    expect(await verifyWebhook(input)).toMatchObject({ ok: false });
    expect(counter.calls()).toBe(2);
  });

  it("accepts an hmac that answers with a string for one secret and a promise for another", async () => {
    const hmac = (secret: string, text: string | Uint8Array) =>
      secret === SECRET
        ? Promise.resolve(syncHmacSha256Hex(secret, text))
        : syncHmacSha256Hex(secret, text);
    const result = await verifyWebhook(literalInput({ secrets: ["other", SECRET], hmac }));
    expect(result).toMatchObject({ ok: true, secretIndex: 1 });
  });

  it("rejects when the hmac fails", async () => {
    const hmac = () => Promise.reject(new Error("no crypto"));
    await expect(verifyWebhook(literalInput({ hmac }))).rejects.toThrow("no crypto");
  });

  it("computes one HMAC for a mismatch without % or + when diagnostics are off", async () => {
    const counter = countingHmac();
    await verifyWebhook(literalInput({ body: "{}", hmac: counter.hmac, diagnose: false }));
    expect(counter.calls()).toBe(1);
  });
});

describe("verifyWebhook: one URL after another", () => {
  it("signs each request's own query, whatever URL came before", async () => {
    const a = await signedInput({ url: "https://r.example/h?a=1" });
    const b = await signedInput({ url: "https://r.example/h?b=2" });
    expect(await verifyWebhook(a)).toMatchObject({ ok: true });
    expect(await verifyWebhook(b)).toMatchObject({ ok: true });
    expect(await verifyWebhook({ ...b, headers: a.headers })).toMatchObject({
      ok: false,
      code: WEBHOOK_SIGNATURE_MISMATCH,
    });
    expect(await verifyWebhook({ ...a, url: new URL("https://r.example/h?a=1") })).toMatchObject({
      ok: true,
    });
  });
});
