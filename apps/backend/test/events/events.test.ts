import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createMetrics } from "../../src/lib/metrics.ts";
import { createEventHub } from "../../src/services/events/hub.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/harness.ts";
import { readSse } from "../support/sse.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

describeEachDriver("live task events (SSE)", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 100);
  });
  afterAll(() => t.close());

  const open = (instance: TestInstance, headers: Record<string, string> = {}) =>
    instance.request("/api/events", { session: user.session, headers });

  const eventIdsAfter = async (id: number) =>
    (
      await selectRows<{ event_id: string }>(
        t.database.db,
        sql`select id::text as event_id from task_events where user_id = ${user.userId} and id > ${id} order by task_events.id`,
      )
    ).map((r) => Number(r.event_id));

  it("refuses a stream without a session", async () => {
    expect((await t.request("/api/events")).status).toBe(401);
  });

  it("streams a fresh client a retry hint and its resume position, then the user's task changes live", async () => {
    const response = await open(t);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readSse(response);
    expect((await stream.next())?.retry).toBe(3000);
    const ready = await stream.next();
    expect(ready?.event).toBe("ready");

    const task = await createTask(t, user.session);
    const statuses: string[] = [];
    let previous = Number(ready?.id);
    while (statuses.at(-1) !== "waiting") {
      const event = await stream.nextTask();
      expect(event.id).toBeGreaterThan(previous);
      expect(event.task.id).toBe(task.id);
      previous = event.id;
      statuses.push(event.task.status);
    }
    expect(statuses).toEqual(["queued", "submitting", "waiting"]);
    await stream.close();
  });

  it("replays every event missed while disconnected exactly once when resumed with Last-Event-ID", async () => {
    const first = readSse(await open(t));
    await first.next();
    const ready = await first.next();
    const task = await createTask(t, user.session);
    const seen = await first.nextTask();
    await first.close();

    // Missed while disconnected: the rest of the submit, then the run to success by webhooks.
    await t.emu.control.clock.advance(10_000);
    const missed = await eventIdsAfter(seen.id);
    expect(missed.length).toBeGreaterThanOrEqual(3);

    const resumed = readSse(await open(t, { "Last-Event-ID": String(seen.id) }));
    expect((await resumed.next())?.retry).toBe(3000);
    const replayed: number[] = [];
    const statuses: string[] = [];
    while (replayed.length < missed.length) {
      const event = await resumed.nextTask();
      replayed.push(event.id);
      if (event.task.id === task.id) statuses.push(event.task.status);
    }
    expect(replayed).toEqual(missed);
    expect(statuses.at(-1)).toBe("success");
    expect(Number(ready?.id)).toBeLessThan(seen.id);
    await resumed.close();
  });

  it("with ?replay=latest, replays only each task's newest missed event, then goes live", async () => {
    const [before = 0] = (await eventIdsAfter(0)).slice(-1);
    const tasks = [await createTask(t, user.session), await createTask(t, user.session)];
    await t.emu.control.clock.advance(10_000);
    const missed = await eventIdsAfter(before);
    expect(missed.length).toBeGreaterThan(tasks.length);

    const resumed = readSse(
      await t.request("/api/events?replay=latest", {
        session: user.session,
        headers: { "Last-Event-ID": String(before) },
      }),
    );
    await resumed.next();
    const replayed = [await resumed.nextTask(), await resumed.nextTask()];
    expect(replayed.map((e) => e.task.id).sort()).toEqual(tasks.map((task) => task.id).sort());
    expect(replayed.map((e) => e.task.status)).toEqual(["success", "success"]);
    expect(replayed.at(-1)?.id).toBe(missed.at(-1));
    // Nothing else was replayed: the next event is a live one.
    const live = await createTask(t, user.session);
    expect((await resumed.nextTask()).task.id).toBe(live.id);
    await resumed.close();
  });

  it("answers what changed after an event id as JSON, each task once, and the position to resume from", async () => {
    const [before = 0] = (await eventIdsAfter(0)).slice(-1);
    const tasks = [await createTask(t, user.session), await createTask(t, user.session)];
    await t.emu.control.clock.advance(10_000);
    const missed = await eventIdsAfter(before);
    const response = await t.request(`/api/events/changes?after=${before}`, {
      session: user.session,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      tasks: { id: string; status: string }[];
      last_event_id: string;
      more: boolean;
    };
    // Each changed task once (an earlier test's task may still be moving too).
    const ids = body.tasks.map((task) => task.id);
    expect(new Set(ids).size).toBe(ids.length);
    const ours = body.tasks.filter((task) => tasks.some((mine) => mine.id === task.id));
    expect(ours.map((task) => task.status)).toEqual(["success", "success"]);
    expect(body).toMatchObject({ last_event_id: String(missed.at(-1)), more: false });

    // Resumed from there, the stream replays nothing: the next event is a live one.
    const resumed = readSse(await open(t, { "Last-Event-ID": body.last_event_id }));
    await resumed.next();
    const live = await createTask(t, user.session);
    expect((await resumed.nextTask()).task.id).toBe(live.id);
    await resumed.close();
  });

  it("sends those changes compressed to a client that accepts it", async () => {
    const response = await t.request("/api/events/changes?after=0", {
      session: user.session,
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(response.headers.get("content-encoding")).toBe("br");
  });

  it("refuses changes after something that is no event id", async () => {
    const response = await t.request("/api/events/changes?after=abc", { session: user.session });
    expect(response.status).toBe(400);
  });

  it("accepts the resume position as ?last_event_id= too", async () => {
    const [last] = (await eventIdsAfter(0)).slice(-1);
    const before = (last ?? 1) - 1;
    const stream = readSse(
      await t.request(`/api/events?last_event_id=${before}`, { session: user.session }),
    );
    await stream.next();
    expect((await stream.nextTask()).id).toBe(last);
    await stream.close();
  });

  it("sends an event accepted by one instance to a client connected to another", async () => {
    const second = await t.openSecondInstance();
    const stream = readSse(await open(second));
    await stream.next();
    await stream.next();
    const task = await createTask(t, user.session);
    const event = await stream.nextTask();
    expect(event.task.id).toBe(task.id);
    expect(event.task.status).toBe("queued");
    await stream.close();
  });

  /** Reads until the stream ends (readSse fails if no frame arrives for 5 s). */
  async function endOf(stream: ReturnType<typeof readSse>): Promise<"ended"> {
    while ((await stream.next()) !== undefined) {
      // retry, ready and ping frames before the end
    }
    return "ended";
  }

  it("ends a live stream at once when its session signs out, and refuses the reconnect", async () => {
    const device = await t.signIn();
    const stream = readSse(await t.request("/api/events", { session: device.sessionToken }));
    expect((await stream.next())?.retry).toBe(3000);
    expect((await stream.next())?.event).toBe("ready");
    const kept = readSse(await open(t)); // another session of the same user stays
    await kept.next();
    await kept.next();

    const out = await t.request("/auth/logout", { method: "POST", session: device.sessionToken });
    expect(out.status).toBe(204);
    expect(await endOf(stream)).toBe("ended");
    expect((await t.request("/api/events", { session: device.sessionToken })).status).toBe(401);

    const task = await createTask(t, user.session);
    expect((await kept.nextTask()).task.id).toBe(task.id);
    await kept.close();
  });

  it("ends the stream on another instance when the session is revoked on this one", async () => {
    const second = await t.openSecondInstance();
    const device = await t.signIn();
    const stream = readSse(await second.request("/api/events", { session: device.sessionToken }));
    await stream.next();
    await stream.next();
    expect(
      (await t.request("/auth/logout", { method: "POST", session: device.sessionToken })).status,
    ).toBe(204);
    expect(await endOf(stream)).toBe("ended");
  });

  it("pings the streams a slice per tick: each once per heartbeat, never all in one burst", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const hub = createEventHub({
      database: t.database,
      metrics: createMetrics(),
      logger: t.backend.deps.logger,
      heartbeatMs: 1_500,
    });
    const decoder = new TextDecoder();
    const pings = Array.from({ length: 90 }, () => 0);
    try {
      await Promise.all(
        pings.map((_, i) => {
          const controller = {
            desiredSize: 1,
            enqueue: (frame: Uint8Array) => {
              if (decoder.decode(frame) === ": ping\n\n") pings[i] = (pings[i] ?? 0) + 1;
            },
            close: () => undefined,
            error: () => undefined,
          } as unknown as ReadableStreamDefaultController<Uint8Array>;
          return hub.attach(user.userId, controller, {
            limits: { maxPerUser: 100, maxLifetimeMs: 3_600_000 },
          });
        }),
      );
      const pinged = () => pings.filter((n) => n > 0).length;
      vi.advanceTimersByTime(25); // one tick: one slice (a 60th) of the 90 streams
      expect(pinged()).toBe(2);
      vi.advanceTimersByTime(1_475); // the rest of the heartbeat: every stream once
      expect(pings).toEqual(pings.map(() => 1));
    } finally {
      vi.useRealTimers();
      await hub.stop();
    }
  });

  it("sends heartbeat comments on a quiet stream and closes streams with a retry hint on stop", async () => {
    const hub = createEventHub({
      database: t.database,
      metrics: t.backend.deps.metrics,
      logger: t.backend.deps.logger,
      heartbeatMs: 20,
    });
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void hub.attach(user.userId, controller, { limits: t.config.sse }),
    });
    const stream = readSse(new Response(body));
    expect((await stream.next())?.retry).toBe(3000);
    expect((await stream.next())?.event).toBe("ready");
    expect((await stream.next())?.comment).toBe("ping");
    expect(hub.size).toBe(1);
    await hub.stop();
    let frame = await stream.next();
    while (frame?.comment === "ping") frame = await stream.next();
    expect(frame?.retry).toBe(1000);
    expect(await stream.next()).toBeUndefined();
    expect(hub.size).toBe(0);
  });
});
