import { afterAll, beforeAll, expect, it } from "vitest";
import { createMetrics, type Metrics } from "../../src/lib/metrics.ts";
import { createEventHub, type HubOptions } from "../../src/services/events/hub.ts";
import type { StreamLimits } from "../../src/services/events/limits.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { readSse } from "../support/sse.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

type Stream = ReturnType<typeof readSse>;

/** The next frame that is not a heartbeat (a slow run may see one). */
async function nextFrame(stream: Stream) {
  let frame = await stream.next();
  while (frame?.comment === "ping") frame = await stream.next();
  return frame;
}

const openStreams = async (metrics: Metrics) =>
  (await metrics.sseClients.get()).values[0]?.value ?? 0;

describeEachDriver("live stream limits (SSE)", (driver) => {
  let t: TestBackend;
  let demo: TaskUser;
  let ada: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver, config: { SSE_MAX_STREAMS_PER_USER: "2" } });
    demo = await setUpTaskUser(t);
    ada = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
  });
  afterAll(() => t.close());

  /** A fresh stream through the route, read past its `retry` and `ready` frames. */
  async function openLive(session: string): Promise<Stream> {
    const stream = readSse(await t.request("/api/events", { session }));
    expect((await stream.next())?.retry).toBe(3000);
    expect((await stream.next())?.event).toBe("ready");
    return stream;
  }

  /** A hub of its own on the suite's database, on a clock the test moves by hand. */
  function manualHub(random: HubOptions["random"]) {
    const clock = { ms: 0, now: () => clock.ms };
    const metrics = createMetrics();
    const hub = createEventHub({
      database: t.database,
      metrics,
      logger: t.backend.deps.logger,
      clock,
      random,
    });
    const open = (limits: StreamLimits) =>
      readSse(
        new Response(
          new ReadableStream<Uint8Array>({
            start: (controller) => void hub.attach(demo.userId, controller, { limits }),
          }),
        ),
      );
    return { hub, clock, metrics, open };
  }

  it("ends the oldest stream of a user who opens one too many, and no other user's", async () => {
    const hub = t.backend.deps.services.liveEvents;
    const adaStream = await openLive(ada.session); // the oldest stream of all
    const oldest = await openLive(demo.session);
    const middle = await openLive(demo.session);
    const newest = await openLive(demo.session);

    expect(await nextFrame(oldest)).toEqual({
      event: "end",
      data: '{"reason":"too_many_streams"}',
      retry: 30_000,
    });
    expect(await oldest.next()).toBeUndefined();
    expect(hub.size).toBe(3);
    expect(await openStreams(t.backend.deps.metrics)).toBe(3);

    const task = await createTask(t, demo.session);
    expect((await middle.nextTask()).task.id).toBe(task.id);
    expect((await newest.nextTask()).task.id).toBe(task.id);
    const adaTask = await createTask(t, ada.session);
    expect((await adaStream.nextTask()).task.id).toBe(adaTask.id);

    for (const stream of [adaStream, middle, newest]) await stream.close();
    expect(hub.size).toBe(0);
    expect(await openStreams(t.backend.deps.metrics)).toBe(0);
  });

  it("ends a stream at its lifetime, and the reconnect with Last-Event-ID gets what was appended meanwhile", async () => {
    const { hub, clock, metrics, open } = manualHub(() => 0.5); // no jitter: exactly 60 s
    const stream = open({ maxPerUser: 16, maxLifetimeMs: 60_000 });
    expect((await stream.next())?.retry).toBe(3000);
    const ready = await stream.next();
    expect(ready?.event).toBe("ready");

    clock.ms = 59_999;
    hub.endExpired();
    expect(hub.size).toBe(1);
    clock.ms = 60_000;
    hub.endExpired();
    expect(await nextFrame(stream)).toEqual({
      event: "end",
      data: '{"reason":"max_lifetime"}',
      retry: 3000,
    });
    expect(await stream.next()).toBeUndefined();
    expect(hub.size).toBe(0);
    expect(await openStreams(metrics)).toBe(0);

    const task = await createTask(t, demo.session);
    const resumed = readSse(
      await t.request("/api/events", {
        session: demo.session,
        headers: { "Last-Event-ID": String(ready?.id) },
      }),
    );
    expect((await resumed.next())?.retry).toBe(3000);
    expect((await resumed.nextTask()).task).toMatchObject({ id: task.id, status: "queued" });
    await resumed.close();
    await hub.stop();
  });

  it("spreads lifetimes over ±10 % so streams opened together do not all end together", async () => {
    const draws = [0, 0.999]; // the extremes: 90 % and 109.98 % of the lifetime
    const { hub, clock, open } = manualHub(() => draws.shift() ?? 0.5);
    const limits = { maxPerUser: 16, maxLifetimeMs: 100_000 };
    const early = open(limits);
    await early.next();
    await early.next();
    const late = open(limits);
    await late.next();
    await late.next();

    clock.ms = 89_999;
    hub.endExpired();
    expect(hub.size).toBe(2);
    clock.ms = 90_000;
    hub.endExpired();
    expect((await nextFrame(early))?.event).toBe("end");
    expect(hub.size).toBe(1);
    clock.ms = 109_979;
    hub.endExpired();
    expect(hub.size).toBe(1);
    clock.ms = 109_980;
    hub.endExpired();
    expect((await nextFrame(late))?.event).toBe("end");
    expect(hub.size).toBe(0);
    await hub.stop();
  });
});
