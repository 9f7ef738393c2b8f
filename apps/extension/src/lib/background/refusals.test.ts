import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, rejection, task } from "../../testing/fixtures.ts";
import { send } from "../shared/messages.ts";
import { snapshotItem } from "../shared/storage.ts";

const SECRET_SET = "2025-01-01T10:00:00.000Z";
const configured =
  (updatedAt = SECRET_SET) =>
  () =>
    json({
      namespace: "demo",
      configured: true,
      updated_at: updatedAt,
      previous_valid_until: null,
    });

describe("background: refused webhook deliveries", () => {
  it("keeps the selected account's refusals received after its secret was set", async () => {
    await signedIn({ tasks: [task({ id: "t1", namespace: "demo" })] });
    const backend = fakeBackend({
      "GET /api/namespaces/demo/webhook-secret": configured(),
      "GET /api/webhook-rejections": () =>
        json({
          rejections: [
            rejection({ id: 3, task_id: "t1", received_at: "2025-01-01T10:02:00.000Z" }),
            rejection({ id: 1, task_id: "t1", received_at: "2025-01-01T09:59:00.000Z" }),
          ],
          next_cursor: null,
        }),
    });
    startTestBackground(backend);
    const snapshot = await send("state/refresh");
    expect(snapshot.webhookRefusals.map((r) => r.id)).toEqual([3]);
    expect(snapshot.webhookRefusals[0]).toMatchObject({
      task_id: "t1",
      namespace: "demo",
      reason: "WEBHOOK_SIGNATURE_MISMATCH",
    });
  });

  it("takes each refusal's account from the backend's list, asking about no task, and leaves out other accounts", async () => {
    await signedIn();
    const backend = fakeBackend({
      "GET /api/namespaces/demo/webhook-secret": configured(),
      "GET /api/webhook-rejections": () =>
        json({
          rejections: [
            rejection({ id: 5, task_id: "t8", namespace: "demo" }),
            rejection({ id: 4, task_id: "t9", namespace: "acme" }),
          ],
          next_cursor: null,
        }),
    });
    startTestBackground(backend);
    const snapshot = await send("state/refresh");
    expect(snapshot.webhookRefusals.map((r) => r.task_id)).toEqual(["t8"]);
    expect(backend.calls("GET", "/api/tasks/t8")).toHaveLength(0);
  });

  it("with a backend that does not name the account, finds the account of a refused task it does not know", async () => {
    await signedIn();
    const backend = fakeBackend({
      "GET /api/namespaces/demo/webhook-secret": configured(),
      "GET /api/webhook-rejections": () =>
        json({
          rejections: [
            rejection({ id: 5, task_id: "t8", namespace: undefined }),
            rejection({ id: 4, task_id: "t9", namespace: undefined }),
          ],
          next_cursor: null,
        }),
      "GET /api/tasks/t8": () => json(task({ id: "t8", namespace: "demo" })),
      "GET /api/tasks/t9": () => json(task({ id: "t9", namespace: "acme" })),
    });
    startTestBackground(backend);
    const snapshot = await send("state/refresh");
    expect(snapshot.webhookRefusals.map((r) => r.task_id)).toEqual(["t8"]);
  });

  it("asks for no refusals when the account has no secret", async () => {
    await signedIn();
    const backend = fakeBackend();
    startTestBackground(backend);
    expect((await send("state/refresh")).webhookRefusals).toEqual([]);
    expect(backend.calls("GET", "/api/webhook-rejections")).toHaveLength(0);
  });

  it("forgets the refusals once a new secret is saved", async () => {
    await signedIn();
    let updatedAt = SECRET_SET;
    const backend = fakeBackend({
      "GET /api/namespaces/demo/webhook-secret": () => configured(updatedAt)(),
      "PUT /api/namespaces/demo/webhook-secret": () => {
        updatedAt = "2025-01-01T10:04:00.000Z";
        return new Response(null, { status: 204 });
      },
      "GET /api/webhook-rejections": () =>
        json({
          rejections: [rejection({ task_id: "t1", received_at: "2025-01-01T10:03:00.000Z" })],
          next_cursor: null,
        }),
      "GET /api/tasks/t1": () => json(task()),
    });
    startTestBackground(backend);
    expect((await send("state/refresh")).webhookRefusals).toHaveLength(1);
    await send("webhook/set", { namespace: "demo", secret: "whsec-new" });
    expect((await snapshotItem.getValue()).webhookRefusals).toEqual([]);
  });

  it("answers the refusals of any account for the settings page", async () => {
    await signedIn();
    const backend = fakeBackend({
      "GET /api/namespaces/acme/webhook-secret": () =>
        json({
          namespace: "acme",
          configured: true,
          updated_at: SECRET_SET,
          previous_valid_until: null,
        }),
      "GET /api/webhook-rejections": () =>
        json({
          rejections: [
            rejection({
              task_id: "t9",
              namespace: "acme",
              received_at: "2025-01-01T10:03:00.000Z",
            }),
          ],
          next_cursor: null,
        }),
    });
    startTestBackground(backend);
    const refusals = await send("webhook/refusals", { namespace: "acme" });
    expect(refusals.map((r) => r.task_id)).toEqual(["t9"]);
  });
});
