import { describe, expect, it } from "vitest";
import { createWebhookHandler, type WebhookReceiverOptions } from "./index.ts";
import { LINK, NOW, SECRET, signedRequest } from "./receiver.fixtures.ts";

const base = { event_id: "e1", task_id: "t1" };

function receiver(
  options: Pick<WebhookReceiverOptions, "onEvent"> & Partial<WebhookReceiverOptions>,
) {
  return createWebhookHandler({ secrets: SECRET, now: () => NOW, ...options });
}

describe("a receiver with one handler per status", () => {
  it("calls the handler of the event's status with the narrowed event", async () => {
    const calls: string[] = [];
    const handle = receiver({
      onEvent: {
        success: (event) => void calls.push(`success ${event.output.file_url}`),
        failure: () => void calls.push("failure"),
      },
    });
    const response = await handle(
      await signedRequest({ ...base, status: "success", output: { file_url: LINK } }),
    );
    expect(response.status).toBe(200);
    expect(calls).toEqual([`success ${LINK}`]);
  });

  it("acknowledges a status it has no handler for and calls nothing", async () => {
    const calls: string[] = [];
    const handle = receiver({ onEvent: { success: () => void calls.push("success") } });
    const response = await handle(await signedRequest({ ...base, status: "waiting" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "accepted", event_id: "e1" });
    expect(calls).toEqual([]);
  });

  it("refuses to be created with a handler for a status spec 2.7 does not have", () => {
    const onEvent = { succes: () => undefined } as WebhookReceiverOptions["onEvent"];
    expect(() => receiver({ onEvent })).toThrow(/"succes", which is not a status of spec 2.7/);
  });

  it("answers 500 when the status's handler throws, so the platform delivers again", async () => {
    const handle = receiver({
      onEvent: {
        failure: () => {
          throw new Error("database down");
        },
      },
    });
    const response = await handle(await signedRequest({ ...base, status: "failure" }));
    expect(response.status).toBe(500);
  });
});

describe("a delivery whose status the spec does not list", () => {
  const unknown = { ...base, status: "failed" };

  it("is refused with 400 WEBHOOK_EVENT_INVALID when there is no onUnknownStatus", async () => {
    const events: unknown[] = [];
    const handle = receiver({ onEvent: (event) => void events.push(event) });
    const response = await handle(await signedRequest(unknown));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "WEBHOOK_EVENT_INVALID" });
    expect(events).toEqual([]);
  });

  it("goes to onUnknownStatus in its wire shape, and is acknowledged", async () => {
    const seen: unknown[] = [];
    const handle = receiver({
      onEvent: () => undefined,
      onUnknownStatus: (body) => void seen.push(body),
    });
    const response = await handle(await signedRequest(unknown));
    expect(response.status).toBe(200);
    expect(seen).toEqual([unknown]);
  });
});

describe("a success without a result link", () => {
  it("is refused with 400 WEBHOOK_EVENT_INVALID, the handler not called", async () => {
    const events: unknown[] = [];
    const handle = receiver({ onEvent: (event) => void events.push(event) });
    const response = await handle(await signedRequest({ ...base, status: "success", output: {} }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "WEBHOOK_EVENT_INVALID" });
    expect(events).toEqual([]);
  });
});
