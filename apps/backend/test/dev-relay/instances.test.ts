import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/harness.ts";
import { createChannel, deliver, listen, RELAY_ON, untilNobodyListens } from "../support/relay.ts";

/**
 * Two instances on one database (DESIGN "Scaling out"): the platform's delivery lands on one,
 * the developer's listener is connected to the other. On Postgres each has its own pool and
 * LISTEN connection; on PGlite they share the embedded database, as one process would.
 */
describeEachDriver("developer relay across instances", (driver) => {
  let t: TestBackend;
  let second: TestInstance;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: RELAY_ON, secondInstance: true });
    if (!t.second) throw new Error("no second instance");
    second = t.second;
    session = (await t.signIn()).sessionToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it("streams a delivery that landed on one instance to the listener on the other", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(second, session, channel.id);
    const answer = await deliver(t, `${channel.url}/hook?x=1`, { body: '{"across":true}' });
    expect(answer.status).toBe(202);
    const delivery = await stream.nextDelivery();
    expect(Buffer.from(delivery.body_base64, "base64").toString()).toBe('{"across":true}');
    expect(delivery.query).toBe("x=1");
    await stream.close();
  });

  it("refuses on one instance once the listener on the other has left", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(second, session, channel.id);
    expect((await deliver(t, channel.url)).status).toBe(202);
    await stream.close();
    await untilNobodyListens(second, channel.id);
    expect((await deliver(t, channel.url)).status).toBe(503);
  });

  it("ends the listener's stream on the other instance when its channel is deleted here", async () => {
    const channel = await createChannel(t, session);
    const stream = await listen(second, session, channel.id);
    await t.request(`/api/relay/channels/${channel.id}`, { method: "DELETE", session });
    // The other instance finds its lease gone at its next round.
    await second.backend.deps.services.devRelay.streams.tick();
    expect(await stream.endReason()).toBe("channel_gone");
  });

  it("ends the listener's stream on the other instance when its session signs out here", async () => {
    const other = (await t.signIn()).sessionToken;
    const channel = await createChannel(t, other);
    const stream = await listen(second, other, channel.id);
    await t.request("/auth/logout", { method: "POST", session: other });
    while (await stream.next());
    expect(stream.ended).toBe(true);
  });
});
