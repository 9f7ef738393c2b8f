import { describe, expect, it } from "vitest";
import type { CapturedDelivery } from "../helpers/capture.ts";
import {
  rawQuery,
  referenceCanonicalQuery,
  referenceSignature,
} from "../helpers/reference-signer.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { firstDelivery, SECRET, webhookEmulator } from "../helpers/webhooks.ts";
import { submitId } from "../helpers/tasks.ts";

const HOOK = "https://receiver.example/hook";

/** Whether the delivery is signed over exactly this signed query string (spec 4.9 steps 1–6). */
function signedOver(d: CapturedDelivery, canonical: string): boolean {
  const ts = d.headers.get("X-Sign-Timestamp") ?? "";
  return d.headers.get("X-Signature") === referenceSignature(SECRET, ts, canonical, d.body);
}

describe("webhook signature (spec 4.8, 4.9), checked with an independent HMAC", () => {
  it("the reference signer matches vectors computed outside Node (Python hmac)", () => {
    const body = '{"event_id":"evt_1","status":"success"}';
    expect(referenceCanonicalQuery("b=2&a=3&a=1&empty")).toBe("a=1&a=3&b=2&empty=");
    expect(referenceSignature(SECRET, "1767225600000", "a=1&a=3&b=2&empty=", body)).toBe(
      "6b2b3a0548fe4c381dc1b4d60e1066f269dff9a1a8351f7fb018c3ec4a84af28",
    );
    expect(referenceSignature(SECRET, "1767225600000", "", "{}")).toBe(
      "6d2e1ba4abd96250ad32bd05f3e83ae28f078adc7be00b4e4c06eec0b0f57128",
    );
  });

  it("4.8: POSTs Content-Type application/json with a 13-digit X-Sign-Timestamp and a lowercase hex X-Signature", async () => {
    const d = await firstDelivery(`${HOOK}?k=1`);
    expect(d.headers.get("Content-Type")).toBe("application/json");
    expect(d.headers.get("X-Sign-Timestamp")).toMatch(/^\d{13}$/);
    expect(d.headers.get("X-Signature")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("4.9 steps 1–6: the signature is HMAC-SHA256(secret, timestamp LF signed query LF raw body) in hex", async () => {
    const d = await firstDelivery(`${HOOK}?k=1`);
    expect(signedOver(d, "k=1")).toBe(true);
    // Change one thing: a different secret does not verify.
    const ts = d.headers.get("X-Sign-Timestamp") ?? "";
    expect(d.headers.get("X-Signature")).not.toBe(referenceSignature("other", ts, "k=1", d.body));
  });

  it("4.9 step 3: the body signed is the exact text sent (not a re-serialisation)", async () => {
    const d = await firstDelivery(HOOK);
    const ts = d.headers.get("X-Sign-Timestamp") ?? "";
    const pretty = JSON.stringify(JSON.parse(d.body), null, 2);
    expect(d.headers.get("X-Signature")).not.toBe(referenceSignature(SECRET, ts, "", pretty));
    expect(signedOver(d, "")).toBe(true);
  });

  it("the X-Sign-Timestamp is the emulator clock's time when a test drives the clock (manual)", async () => {
    const { emu, deliveries } = webhookEmulator();
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.settle();
    expect(deliveries[0]?.headers.get("X-Sign-Timestamp")).toBe(String(emu.control.clock.now()));
  });

  it("the X-Sign-Timestamp is the wall clock's time by default on a real clock that runs ahead of it", async () => {
    const { emu, deliveries } = webhookEmulator({ clock: "real", clockScale: 60 });
    try {
      await emu.control.clock.advance(3_600_000);
      const before = Date.now();
      await submitId(emu, undefined, { webhook: HOOK });
      await emu.control.settle();
      const ts = Number(deliveries[0]?.headers.get("X-Sign-Timestamp"));
      expect(ts).toBeGreaterThanOrEqual(before);
      expect(ts).toBeLessThanOrEqual(Date.now());
    } finally {
      emu.control.close();
    }
  });

  it('webhook.timestampClock: "emulator" signs with the emulator clock on a real clock too', async () => {
    const { emu, deliveries } = webhookEmulator({
      clock: "real",
      webhook: { timestampClock: "emulator" },
    });
    try {
      await emu.control.clock.advance(3_600_000);
      await submitId(emu, undefined, { webhook: HOOK });
      await emu.control.settle();
      const ts = Number(deliveries[0]?.headers.get("X-Sign-Timestamp"));
      expect(ts).toBeGreaterThanOrEqual(Date.now() + 3_500_000);
    } finally {
      emu.control.close();
    }
  });

  it("4.9 rule 1: keeps duplicate parameters", async () => {
    const d = await firstDelivery(`${HOOK}?a=1&a=1`);
    expect(signedOver(d, "a=1&a=1")).toBe(true);
    expect(signedOver(d, "a=1")).toBe(false);
  });

  it("4.9 rule 2: sorts by parameter name", async () => {
    const d = await firstDelivery(`${HOOK}?b=1&a=2`);
    expect(signedOver(d, "a=2&b=1")).toBe(true);
    expect(signedOver(d, "b=1&a=2")).toBe(false);
  });

  it("4.9 rule 2: sorts names by code point, not locale (B before a, a-b before a_b)", async () => {
    const d = await firstDelivery(`${HOOK}?a_b=1&a=2&B=3&a-b=4`);
    expect(signedOver(d, "B=3&a=2&a-b=4&a_b=1")).toBe(true);
  });

  it("4.9 rule 3: sorts equal names by value", async () => {
    const d = await firstDelivery(`${HOOK}?a=3&a=1&a=2`);
    expect(signedOver(d, "a=1&a=2&a=3")).toBe(true);
    expect(signedOver(d, "a=3&a=1&a=2")).toBe(false);
  });

  it("4.9 rule 4: a missing value is the empty string", async () => {
    const d = await firstDelivery(`${HOOK}?empty&a=1`);
    expect(signedOver(d, "a=1&empty=")).toBe(true);
    expect(signedOver(d, "a=1&empty")).toBe(false);
  });

  it("4.9 rule 5: joins key=value pairs with &", async () => {
    const d = await firstDelivery(`${HOOK}?x=1&y=2`);
    expect(signedOver(d, "x=1&y=2")).toBe(true);
    expect(signedOver(d, "x=1y=2")).toBe(false);
  });

  it("4.9 rule 6: a callback URL without a query gives an empty second line", async () => {
    const d = await firstDelivery(HOOK);
    const ts = d.headers.get("X-Sign-Timestamp") ?? "";
    expect(d.headers.get("X-Signature")).toBe(referenceSignature(SECRET, ts, "", d.body));
  });

  it("4.9: the spec's shape example b=2&a=3&a=1&empty signs a=1&a=3&b=2&empty=", async () => {
    const d = await firstDelivery(`${HOOK}?b=2&a=3&a=1&empty`);
    expect(signedOver(d, "a=1&a=3&b=2&empty=")).toBe(true);
    expect(referenceCanonicalQuery(rawQuery(d.url))).toBe("a=1&a=3&b=2&empty=");
  });

  it("4.8: keeps the query as given by default (raw reading: %20 and + are signed untouched)", async () => {
    const d = await firstDelivery(`${HOOK}?q=a%20b+c`);
    expect(signedOver(d, "q=a%20b+c")).toBe(true);
    expect(signedOver(d, "q=a b c")).toBe(false);
  });

  it("option queryReading form-decoded: keys and values are form-decoded before sorting", async () => {
    const d = await firstDelivery(`${HOOK}?q=a%20b+c`, { queryReading: "form-decoded" });
    expect(signedOver(d, "q=a b c")).toBe(true);
  });

  it("option queryReading percent-decoded: %xx decoded, + kept, before sorting", async () => {
    const d = await firstDelivery(`${HOOK}?q=a%20b+c`, { queryReading: "percent-decoded" });
    expect(signedOver(d, "q=a b+c")).toBe(true);
  });

  it("4.8: the callback request goes to the X-WebHook URL with its query exactly as given", async () => {
    const receiver = await startReceiver();
    try {
      const { emu } = webhookEmulator({ fetch: (input, init) => fetch(input, init) });
      const path = "/hook?b=%7e&a=x+y&a=&k=Z9";
      await submitId(emu, undefined, { webhook: `${receiver.url}${path}` });
      await emu.control.settle();
      expect(receiver.received[0]?.rawUrl).toBe(path);
      const got = receiver.received[0];
      const ts = String(got?.headers["x-sign-timestamp"]);
      expect(got?.headers["x-signature"]).toBe(
        referenceSignature(SECRET, ts, "a=&a=x+y&b=%7e&k=Z9", got?.body ?? ""),
      );
    } finally {
      await receiver.close();
    }
  });
});
