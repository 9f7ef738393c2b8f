import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../webhook/index.ts";
import { WebhookVerificationError, constructCallbackEvent } from "./index.ts";
import { LINK, NOW, SECRET, signedDelivery } from "./receiver.fixtures.ts";

const SUCCESS = { event_id: "e1", task_id: "t1", status: "success", output: { url: LINK } };

/** What constructCallbackEvent threw, or a failure when it returned. */
async function thrown(run: () => Promise<unknown>): Promise<WebhookVerificationError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error("constructCallbackEvent returned instead of throwing");
}

describe("constructCallbackEvent", () => {
  it("returns the typed event of a verified delivery, the result link in output.file_url", async () => {
    const delivery = await signedDelivery(SUCCESS);
    const event = await constructCallbackEvent({ ...delivery, secrets: SECRET, now: () => NOW });
    expect(event).toEqual({ ...SUCCESS, output: { url: LINK, file_url: LINK } });
  });

  it.each([
    ["another secret", { secrets: "another-secret" }],
    ["a clock ten minutes on", { now: () => NOW + 600_000 }],
  ])("throws WebhookVerificationError with verifyWebhook's code, given %s", async (_, change) => {
    const delivery = await signedDelivery(SUCCESS);
    const input = { ...delivery, secrets: SECRET, now: () => NOW, ...change };
    const result = await verifyWebhook(input);
    const error = await thrown(() => constructCallbackEvent(input));
    expect(result.ok).toBe(false);
    expect(error.code).toBe(!result.ok && result.code);
    expect(error.status).toBe(401);
    expect(error.name).toBe("WebhookVerificationError");
  });

  it("carries the diagnosis of a mismatch for the receiver's log", async () => {
    const delivery = await signedDelivery(SUCCESS);
    const error = await thrown(() =>
      constructCallbackEvent({
        ...delivery,
        secrets: "new",
        formerSecrets: [SECRET],
        now: () => NOW,
      }),
    );
    expect(error.diagnoses?.[0]?.code).toBe("FORMER_SECRET_MATCHES");
  });

  it("throws WEBHOOK_BODY_NOT_JSON (400) for a signed body that is not JSON", async () => {
    const delivery = await signedDelivery("not json");
    const error = await thrown(() =>
      constructCallbackEvent({ ...delivery, secrets: SECRET, now: () => NOW }),
    );
    expect([error.status, error.code]).toEqual([400, "WEBHOOK_BODY_NOT_JSON"]);
  });

  it("throws WEBHOOK_EVENT_INVALID (400) for a status the spec does not list", async () => {
    const delivery = await signedDelivery({ ...SUCCESS, status: "failed" });
    const error = await thrown(() =>
      constructCallbackEvent({ ...delivery, secrets: SECRET, now: () => NOW }),
    );
    expect([error.status, error.code]).toEqual([400, "WEBHOOK_EVENT_INVALID"]);
  });

  it("throws a TypeError, not a verification error, when it has no secret", async () => {
    const delivery = await signedDelivery(SUCCESS);
    await expect(constructCallbackEvent({ ...delivery, secrets: undefined })).rejects.toThrow(
      TypeError,
    );
  });
});
