import { callbackEventSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import { eventOf } from "../helpers/capture.ts";
import { bearer, DEMO_TOKEN } from "../helpers/emulator.ts";
import { referenceSignature } from "../helpers/reference-signer.ts";
import { submitId } from "../helpers/tasks.ts";
import { SECRET, webhookEmulator } from "../helpers/webhooks.ts";
import { captureFetch } from "../helpers/capture.ts";
import { manualEmulator } from "../helpers/emulator.ts";

const HOOK = "https://receiver.example/hook?k=1";
/** Tasks that stay `waiting`, so only one event exists. */
const ONE_EVENT = { timing: { waitingMs: 1e9 } };

describe("webhook delivery (spec 5 rule 6, 6, 2.7, 8)", () => {
  it("5 rule 6: sends nothing while the account's webhook secret is empty (the default)", async () => {
    const capture = captureFetch();
    const emu = manualEmulator({ fetch: capture.fetch });
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(10_000);
    expect(capture.deliveries).toHaveLength(0);
    expect(emu.control.listDeliveries()).toHaveLength(0);
  });

  it("5 rule 6: sends nothing when the submit carried no X-WebHook", async () => {
    const { emu, deliveries } = webhookEmulator();
    await submitId(emu);
    await emu.control.clock.advance(10_000);
    expect(deliveries).toHaveLength(0);
  });

  it("5 rule 6: sends nothing when the submit's X-WebHook is empty (counted as absent)", async () => {
    const { emu, deliveries } = webhookEmulator();
    await submitId(emu, undefined, { webhook: "" });
    await emu.control.clock.advance(10_000);
    expect(deliveries).toHaveLength(0);
    expect(emu.control.listDeliveries()).toHaveLength(0);
  });

  it("6: sends one event per status change: waiting, in_progress, success", async () => {
    const { emu, deliveries } = webhookEmulator();
    const id = await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(5_000);
    expect(deliveries.map((d) => eventOf(d).status)).toEqual(["waiting", "in_progress", "success"]);
    expect(deliveries.every((d) => eventOf(d).task_id === id)).toBe(true);
  });

  it("6: a cancellation sends a cancelled event", async () => {
    const { emu, deliveries } = webhookEmulator();
    const id = await submitId(emu, undefined, { webhook: HOOK });
    await emu.app.request(`/api/v1/task/${id}/cancel`, {
      method: "POST",
      headers: bearer(DEMO_TOKEN),
    });
    await emu.control.settle();
    expect(deliveries.map((d) => eventOf(d).status)).toEqual(["waiting", "cancelled"]);
  });

  it("2.7: the body has event_id, task_id, status, output and usage_info", async () => {
    const { emu, deliveries } = webhookEmulator();
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(5_000);
    const success = JSON.parse(deliveries[2]?.body ?? "{}") as Record<string, unknown>;
    expect(callbackEventSchema.safeParse(success).success).toBe(true);
    expect(Object.keys(success).sort()).toEqual([
      "event_id",
      "output",
      "status",
      "task_id",
      "usage_info",
    ]);
    expect(success.output).toMatchObject({ file_url: expect.stringMatching(/\.wav$/) as string });
  });

  it("6 rule 1: event_id is unique per status event", async () => {
    const { emu, deliveries } = webhookEmulator();
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(5_000);
    expect(new Set(deliveries.map((d) => eventOf(d).event_id)).size).toBe(3);
  });

  it("8: a failed delivery is retried after 200 ms, 5 s, 15 s, 30 s and 120 s, then given up", async () => {
    const { emu, deliveries } = webhookEmulator(ONE_EVENT, [500, 500, 500, 500, 500, 500, 500]);
    const t0 = emu.control.clock.now();
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.settle();
    await emu.control.clock.advance(199);
    expect(deliveries).toHaveLength(1);
    await emu.control.clock.advance(1);
    expect(deliveries).toHaveLength(2);
    await emu.control.clock.advance(3_600_000);
    expect(deliveries).toHaveLength(6);
    const [record] = emu.control.listDeliveries();
    expect(record?.attempts.map((a) => a.at - t0)).toEqual([
      0, 200, 5_200, 20_200, 50_200, 170_200,
    ]);
    expect(record?.state).toBe("failed");
  });

  it("6 rule 1: retries carry the same event_id and body, each signed with a fresh timestamp", async () => {
    const { emu, deliveries } = webhookEmulator(ONE_EVENT, [500, 500]);
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(10_000);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((d) => d.body)).size).toBe(1);
    const stamps = deliveries.map((d) => d.headers.get("X-Sign-Timestamp") ?? "");
    expect(new Set(stamps).size).toBe(3);
    for (const d of deliveries) {
      const ts = d.headers.get("X-Sign-Timestamp") ?? "";
      expect(d.headers.get("X-Signature")).toBe(referenceSignature(SECRET, ts, "k=1", d.body));
    }
  });

  it("6 rule 2: stops at the first 2xx", async () => {
    const { emu, deliveries } = webhookEmulator(ONE_EVENT, [500, 503, 204]);
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(3_600_000);
    expect(deliveries).toHaveLength(3);
    expect(emu.control.listDeliveries()[0]?.state).toBe("succeeded");
  });

  it("4.8: a 3xx answer is a failure (redirects are not followed)", async () => {
    const { emu, deliveries } = webhookEmulator(ONE_EVENT, [302]);
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.settle();
    expect(emu.control.listDeliveries()[0]?.attempts[0]?.outcome).toBe("other_status");
    await emu.control.clock.advance(200);
    expect(deliveries).toHaveLength(2);
  });

  it("6 rule 4: a failed record can be retried by hand; the manual attempt is logged", async () => {
    const { emu } = webhookEmulator(ONE_EVENT, [500, 500, 500, 500, 500, 500]);
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.clock.advance(3_600_000);
    const [failed] = emu.control.listDeliveries();
    const after = await emu.control.retryDelivery(failed?.id ?? "");
    expect(after.state).toBe("succeeded");
    expect(after.attempts.at(-1)).toMatchObject({
      trigger: "manual",
      outcome: "success",
      responseStatus: 200,
    });
  });

  it("6 rule 4: a record that has not failed cannot be retried by hand", async () => {
    const { emu } = webhookEmulator(ONE_EVENT);
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.settle();
    const [ok] = emu.control.listDeliveries();
    await expect(emu.control.retryDelivery(ok?.id ?? "")).rejects.toMatchObject({
      code: "delivery_not_retryable",
    });
  });

  it("5 rule 8: after a secret reset, deliveries are signed with the new secret", async () => {
    const { emu, deliveries } = webhookEmulator();
    await submitId(emu, undefined, { webhook: HOOK });
    await emu.control.settle();
    const secret = emu.control.resetWebhookSecret("demo");
    await emu.control.clock.advance(1_000);
    const d = deliveries[1];
    const ts = d?.headers.get("X-Sign-Timestamp") ?? "";
    expect(d?.headers.get("X-Signature")).toBe(
      referenceSignature(secret, ts, "k=1", d?.body ?? ""),
    );
    expect(secret).not.toBe(SECRET);
  });
});
