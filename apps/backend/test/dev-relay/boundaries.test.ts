import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { createChannel, deliver, listen, RELAY_ON, untilNobodyListens } from "../support/relay.ts";

describeEachDriver("developer relay between two users", (driver) => {
  let t: TestBackend;
  let demo: string;
  let ada: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: RELAY_ON });
    demo = (await t.signIn({ login: "demo" })).sessionToken;
    ada = (await t.signIn({ login: "ada" })).sessionToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it("lets nobody else list, delete or listen to a user's channel", async () => {
    const mine = await createChannel(t, demo);
    const listed = (await (await t.request("/api/relay/channels", { session: ada })).json()) as {
      channels: { id: string }[];
    };
    expect(listed.channels.map((c) => c.id)).not.toContain(mine.id);
    const deleted = await t.request(`/api/relay/channels/${mine.id}`, {
      method: "DELETE",
      session: ada,
    });
    expect(deleted.status).toBe(404);
    expect(await deleted.json()).toMatchObject({ error: "relay_channel_not_found" });
    const listened = await t.request(`/api/relay/channels/${mine.id}/events`, { session: ada });
    expect(listened.status).toBe(404);
    // Ada's attempt to listen opened nothing: nobody listens, so deliveries are refused.
    expect((await deliver(t, mine.url)).status).toBe(503);
    // The owner's channel is untouched.
    const stream = await listen(t, demo, mine.id);
    expect((await deliver(t, mine.url)).status).toBe(202);
    await stream.close();
  });

  it("sends each channel's deliveries to its owner's listener only", async () => {
    const mine = await createChannel(t, demo);
    const theirs = await createChannel(t, ada);
    const myStream = await listen(t, demo, mine.id);
    const theirStream = await listen(t, ada, theirs.id);
    await deliver(t, mine.url, { body: '{"for":"demo"}' });
    await deliver(t, theirs.url, { body: '{"for":"ada"}' });
    const body = async (s: Awaited<ReturnType<typeof listen>>) =>
      Buffer.from((await s.nextDelivery()).body_base64, "base64").toString();
    expect(await body(myStream)).toBe('{"for":"demo"}');
    expect(await body(theirStream)).toBe('{"for":"ada"}');
    await myStream.close();
    await theirStream.close();
    await untilNobodyListens(t, mine.id);
  });

  it("lists a user's channels without their URLs, which were shown once", async () => {
    const created = await createChannel(t, ada);
    const listed = (await (await t.request("/api/relay/channels", { session: ada })).json()) as {
      channels: { id: string; url: string | null }[];
    };
    expect(listed.channels.find((c) => c.id === created.id)).toMatchObject({ url: null });
  });
});

describeEachDriver("developer relay while RELAY_ENABLED is off", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers 404 on every relay route, as for a path with no route", async () => {
    const token = `rl_${"A".repeat(43)}`;
    const answers = await Promise.all([
      t.request("/api/relay/channels", { method: "POST", session }),
      t.request("/api/relay/channels", { session }),
      t.request("/api/relay/channels/00000000-0000-4000-8000-000000000000", {
        method: "DELETE",
        session,
      }),
      t.request("/api/relay/channels/00000000-0000-4000-8000-000000000000/events", { session }),
      deliver(t, `http://backend.test/relay/${token}`),
      deliver(t, `http://backend.test/relay/${token}/hook?a=1`),
      t.request(`/relay/${token}`),
    ]);
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    for (const answer of answers) expect(await answer.json()).toMatchObject({ error: "not_found" });
  });
});
