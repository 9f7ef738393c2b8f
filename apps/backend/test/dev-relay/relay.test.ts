import { createWebhookHandler } from "@overture/core/receiver";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { PLATFORM_BASE_URL, startTestBackend, type TestBackend } from "../support/harness.ts";
import {
  createChannel,
  deliver,
  forwarded,
  listen,
  RELAY_ON,
  untilNobodyListens,
} from "../support/relay.ts";
import { selectRows } from "../support/sql.ts";

/** A task submitted straight to the platform with `X-WebHook` (as a developer's own app does). */
async function submitOnPlatform(t: TestBackend, webhookUrl: string): Promise<string> {
  const form = new FormData();
  form.set("prompt", "relay test");
  form.set("duration", "30");
  const response = await t.emu.app.request(`${PLATFORM_BASE_URL}/v1/async/music/generations`, {
    method: "POST",
    headers: { Authorization: "Bearer emu-demo-studio-paid-0001", "X-WebHook": webhookUrl },
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { task_id: string }).task_id;
}

describeEachDriver("developer relay", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: RELAY_ON });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it("relays the platform's deliveries to the listener, and a receiver verifies them with core", async () => {
    const secret = t.emu.control.resetWebhookSecret("demo");
    const channel = await createChannel(t, session);
    expect(channel.url).toMatch(/^http:\/\/backend\.test\/relay\/rl_[A-Za-z0-9_-]{43}$/);
    const stream = await listen(t, session, channel.id);
    const taskId = await submitOnPlatform(t, `${channel.url}/hook?b=2&a=1`);
    await t.emu.control.clock.advance(10_000);

    const events: { task_id: string; status: string }[] = [];
    const receive = createWebhookHandler({
      secrets: secret,
      now: () => t.clock.now(),
      onEvent: (event) => void events.push(event),
    });
    const sent = t.emu.control.getTask(taskId);
    expect(sent?.status).toBe("success");
    for (;;) {
      const delivery = await stream.nextDelivery();
      expect(delivery).toMatchObject({ method: "POST", path: "/hook", query: "b=2&a=1" });
      const answer = await receive(forwarded(delivery, "http://localhost:3000"));
      expect(answer.status).toBe(200);
      if (events.at(-1)?.status === "success") break;
    }
    expect(events.every((e) => e.task_id === taskId)).toBe(true);
    await stream.close();
  });

  it("refuses deliveries with 503 while nobody listens, before and after a listener", async () => {
    const channel = await createChannel(t, session);
    const before = await deliver(t, channel.url);
    expect(before.status).toBe(503);
    expect(before.headers.get("retry-after")).toBe("5");
    expect(await before.json()).toMatchObject({ error: "relay_no_listener" });

    const stream = await listen(t, session, channel.id);
    expect((await deliver(t, channel.url)).status).toBe(202);
    await stream.close();
    await untilNobodyListens(t, channel.id);
    expect((await deliver(t, channel.url)).status).toBe(503);
  });

  it("keeps the body's bytes, the path, the query and the sender's headers; drops per-hop ones", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const body = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x00, 0xff, 0x7d, 0x0a]);
    const answer = await deliver(t, `${channel.url}/deep/hook?b=2&a=1&a=0&empty&x=%2F`, {
      body,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "X-Sign-Timestamp": "1767225600000",
        "X-Signature": "ab".repeat(32),
        Connection: "keep-alive, X-Hop",
        "X-Hop": "1",
        "X-Forwarded-For": "203.0.113.9",
        Via: "1.1 proxy",
        Forwarded: "for=203.0.113.9",
      },
    });
    expect(answer.status).toBe(202);
    const delivery = await stream.nextDelivery();
    expect(new Uint8Array(Buffer.from(delivery.body_base64, "base64"))).toEqual(body);
    expect(delivery.path).toBe("/deep/hook");
    expect(delivery.query).toBe("b=2&a=1&a=0&empty&x=%2F");
    const names = delivery.headers.map(([name]) => name);
    expect(Object.fromEntries(delivery.headers)).toMatchObject({
      "content-type": "application/json; charset=utf-8",
      "x-sign-timestamp": "1767225600000",
      "x-signature": "ab".repeat(32),
    });
    for (const dropped of ["connection", "x-hop", "x-forwarded-for", "via", "forwarded", "host"])
      expect(names).not.toContain(dropped);
    expect(names).not.toContain("content-length");
    await stream.close();
  });

  it("resumes after Last-Event-ID with what the buffer got meanwhile", async () => {
    const channel = await createChannel(t, session);
    const first = await listen(t, session, channel.id);
    // A second listener keeps the channel open while the first is away.
    const second = await listen(t, session, channel.id);
    for (const n of [1, 2]) await deliver(t, channel.url, { body: `{"n":${n}}` });
    const one = await first.nextDelivery();
    await first.close();
    await deliver(t, channel.url, { body: '{"n":3}' });
    const again = await listen(t, session, channel.id, one.id);
    const bodies = [await again.nextDelivery(), await again.nextDelivery()].map((d) =>
      Buffer.from(d.body_base64, "base64").toString(),
    );
    expect(bodies).toEqual(['{"n":2}', '{"n":3}']);
    await again.close();
    await second.close();
  });

  it("ends the listener's stream when its session is revoked, and refuses its reconnect", async () => {
    const other = (await t.signIn({ login: "demo" })).sessionToken;
    const channel = await createChannel(t, other);
    const stream = await listen(t, other, channel.id);
    await t.request("/auth/logout", { method: "POST", session: other });
    while (await stream.next());
    expect(stream.ended).toBe(true);
    expect(
      (await t.request(`/api/relay/channels/${channel.id}/events`, { session: other })).status,
    ).toBe(401);
  });

  it("deletes a channel: its URL answers 404 and its listener's stream ends", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const deleted = await t.request(`/api/relay/channels/${channel.id}`, {
      method: "DELETE",
      session,
    });
    expect(deleted.status).toBe(204);
    expect(await stream.endReason()).toBe("channel_gone");
    const after = await deliver(t, channel.url);
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: "relay_channel_not_found" });
  });

  it("never reaches the webhook intake: no task, event or rejection is written", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const counts = () =>
      selectRows<{ n: number }>(
        t.database.db,
        sql`select (select count(*) from webhook_events) + (select count(*) from task_events)
              + (select count(*) from webhook_rejections) + (select count(*) from tasks) as n`,
      );
    const before = await counts();
    // Even a path and query that read like the intake's own.
    const answer = await deliver(t, `${channel.url}/webhooks/platform?k=abc`, {
      headers: { "X-Sign-Timestamp": String(t.clock.now()), "X-Signature": "00".repeat(32) },
    });
    expect(answer.status).toBe(202);
    await stream.nextDelivery();
    expect(await counts()).toEqual(before);
    await stream.close();
  });

  it("answers 405 to a method other than POST, and 404 to a token never issued", async () => {
    const channel = await createChannel(t, session);
    const get = await t.request(new URL(channel.url).pathname);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await deliver(t, `http://backend.test/relay/rl_${"A".repeat(43)}`)).status).toBe(404);
    expect((await deliver(t, "http://backend.test/relay/not-a-token")).status).toBe(404);
  });

  it("ends a channel's oldest stream on this instance when a fifth listener connects", async () => {
    const channel = await createChannel(t, session);
    const streams = [];
    for (let i = 0; i < 5; i += 1) streams.push(await listen(t, session, channel.id));
    expect(await streams[0]?.endReason()).toBe("too_many_listeners");
    for (const stream of streams.slice(1)) await stream.close();
  });
});
