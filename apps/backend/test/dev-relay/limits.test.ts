import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { createChannel, deliver, listen, RELAY_ON } from "../support/relay.ts";

describeEachDriver("developer relay: rate limit", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ...RELAY_ON, RELAY_DELIVERIES_PER_MINUTE: "3" },
    });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it("takes a burst of RELAY_DELIVERIES_PER_MINUTE per channel, then 429 with Retry-After", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await deliver(t, channel.url)).status);
    expect(answers).toEqual([202, 202, 202, 429]);
    const limited = await deliver(t, channel.url);
    expect(limited.headers.get("retry-after")).toBe("20");
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
    // Another channel has its own bucket; this one refills at 3 a minute.
    const other = await createChannel(t, session);
    const otherStream = await listen(t, session, other.id);
    expect((await deliver(t, other.url)).status).toBe(202);
    await t.emu.control.clock.advance(20_000);
    expect((await deliver(t, channel.url)).status).toBe(202);
    await stream.close();
    await otherStream.close();
  });
});

describeEachDriver("developer relay: buffer and body limits", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: {
        ...RELAY_ON,
        RELAY_BUFFER_DELIVERIES: "3",
        RELAY_BUFFER_KB: "64",
        WEBHOOK_MAX_BODY_BYTES: "40000",
      },
    });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(async () => {
    await t.close();
  });
  const relay = () => t.backend.deps.services.devRelay;

  it("holds RELAY_BUFFER_DELIVERIES per channel, answers 503 when full, and frees room after 5 minutes", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await deliver(t, channel.url)).status);
    expect(answers).toEqual([202, 202, 202, 503]);
    const full = await deliver(t, channel.url);
    expect(full.headers.get("retry-after")).toBe("30");
    expect(await full.json()).toMatchObject({ error: "relay_buffer_full" });
    // Deliveries leave the buffer after the replay window; the listener's lease is renewed.
    await t.emu.control.clock.advance(5 * 60_000 + 1_000);
    await relay().streams.tick();
    expect((await deliver(t, channel.url)).status).toBe(202);
    await stream.close();
  });

  it("holds RELAY_BUFFER_KB of bodies and headers per channel", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const body = "x".repeat(30_000);
    expect((await deliver(t, channel.url, { body })).status).toBe(202);
    expect((await deliver(t, channel.url, { body })).status).toBe(202);
    const third = await deliver(t, channel.url, { body });
    expect(third.status).toBe(503);
    expect(await third.json()).toMatchObject({ error: "relay_buffer_full" });
    // A small one still fits.
    expect((await deliver(t, channel.url, { body: "{}" })).status).toBe(202);
    await stream.close();
  });

  it("refuses a body over WEBHOOK_MAX_BODY_BYTES with 413, and relays nothing of it", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const tooLarge = await deliver(t, channel.url, { body: "x".repeat(40_001) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: "payload_too_large" });
    expect((await deliver(t, channel.url, { body: "x".repeat(40_000) })).status).toBe(202);
    const delivery = await stream.nextDelivery();
    expect(Buffer.from(delivery.body_base64, "base64").byteLength).toBe(40_000);
    await stream.close();
  });

  it("refuses a delivery with more than 100 headers (431)", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    const headers = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`x-extra-${i}`, "1"]),
    );
    const answer = await deliver(t, channel.url, { headers });
    expect(answer.status).toBe(431);
    await stream.close();
  });

  it("stops accepting for a listener whose lease is no longer renewed (its instance died)", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(t, session, channel.id);
    await t.emu.control.clock.advance(31_000);
    expect((await deliver(t, channel.url)).status).toBe(503);
    await relay().streams.tick();
    expect((await deliver(t, channel.url)).status).toBe(202);
    await stream.close();
  });
});
