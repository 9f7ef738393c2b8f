import { signWebhook, type WebhookSignatureHeaders } from "@overture/core/webhook";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const utf8 = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/**
 * Spec 4.9 step 3: the HMAC covers the body's bytes as received. The backend verifies those bytes
 * and decodes afterwards, so a decoder that drops a byte-order mark or replaces invalid UTF-8
 * cannot change what is verified. A signed body that is not UTF-8 JSON is the sender's error: a
 * 400 `malformed_body` saying which, and nothing applied to the task.
 */
describeEachDriver("webhook bodies as raw bytes", (driver) => {
  let t: TestBackend;
  let user: TaskUser & { secret?: string };
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 100);
  });
  afterAll(() => t.close());

  let counter = 0;
  async function target() {
    const task = await createTask(t, user.session);
    const url = t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "";
    counter += 1;
    const event = JSON.stringify({
      event_id: `evt_bytes_${counter}`,
      task_id: task.platform_task_id,
      status: "success",
      output: { file_url: "https://cdn.example/a.wav" },
    });
    return { task, url, event };
  }
  const sign = (url: string, body: Uint8Array) =>
    signWebhook({ secret: user.secret ?? "", url, body, now: () => t.clock.now() });
  const post = (url: string, headers: WebhookSignatureHeaders, body: Uint8Array) =>
    t.app.request(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: body as Uint8Array<ArrayBuffer>,
    });

  it("accepts a body that starts with a byte-order mark when the BOM was signed with it", async () => {
    const { task, url, event } = await target();
    const body = concat(BOM, utf8(event));
    const response = await post(url, await sign(url, body), body);
    expect(response.status).toBe(200);
    expect((await getTask(t, user.session, task.id)).status).toBe("success");
  });

  it("refuses a byte-order mark put in front of a body that was signed without it", async () => {
    const { task, url, event } = await target();
    const headers = await sign(url, utf8(event));
    const response = await post(url, headers, concat(BOM, utf8(event)));
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe("webhook_signature_mismatch");
    expect((await getTask(t, user.session, task.id)).status).not.toBe("success");
  });

  it("refuses a correctly signed body that is not valid UTF-8 with a 400 and applies nothing", async () => {
    const { task, url, event } = await target();
    // A lone 0xFF inside a string: a replacing decoder would turn it into U+FFFD and go on.
    const body = concat(
      utf8(event.slice(0, -1)),
      utf8(',"note":"'),
      new Uint8Array([0xff]),
      utf8('"}'),
    );
    const response = await post(url, await sign(url, body), body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "malformed_body",
      message: expect.stringContaining("UTF-8") as unknown,
    });
    expect((await getTask(t, user.session, task.id)).status).not.toBe("success");
  });

  it("refuses a correctly signed body that is not JSON with a 400 and applies nothing", async () => {
    const { task, url } = await target();
    const body = utf8("status=success");
    const response = await post(url, await sign(url, body), body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "malformed_body",
      message: expect.stringContaining("not JSON") as unknown,
    });
    expect((await getTask(t, user.session, task.id)).status).not.toBe("success");
  });
});
