import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { createMetrics } from "../../src/lib/metrics.ts";
import { TASK_EVENTS_CHANNEL } from "../../src/db/channels.ts";
import type { Task } from "../../src/schemas/task.ts";
import { createEventHub } from "../../src/services/events/hub.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { readSse } from "../support/sse.ts";
import { appendInProgress, createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const LIMITS = { maxPerUser: 5, maxLifetimeMs: 3_600_000 };

describeEachDriver("events committed by this instance (SSE)", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  // The catch-up read is an hour away: only commits and NOTIFYs bring events.
  const hubWithoutCatchUp = (database: Database) =>
    createEventHub({
      database,
      metrics: createMetrics(),
      logger: t.backend.deps.logger,
      catchUpMs: 3_600_000,
    });

  it("reaches this instance's streams without waiting for its NOTIFY", async () => {
    // A hub that never hears a NOTIFY and whose catch-up read is an hour away: only being told
    // of the commit can bring the event to the stream in time.
    const deaf: Database = {
      ...t.database,
      listen: () => Promise.resolve(() => Promise.resolve()),
    };
    const hub = hubWithoutCatchUp(deaf);
    const stream = readSse(
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => void hub.attach(user.userId, controller, { limits: LIMITS }),
        }),
      ),
    );
    try {
      expect((await stream.next())?.retry).toBe(3000);
      expect((await stream.next())?.event).toBe("ready");
      const task = await createTask(t, user.session);
      const lastId = await appendInProgress(t, user, task, { announce: false });
      hub.committedHere(lastId);
      let event = await stream.nextTask();
      while (event.id < lastId) event = await stream.nextTask();
      expect(event.id).toBe(Number(lastId));
      expect(event.task.status).toBe("in_progress");
    } finally {
      await stream.close();
      await hub.stop();
    }
  });

  const inProgress = (task: Task, announce: boolean) =>
    appendInProgress(t, user, task, { announce });
  const openStream = (hub: ReturnType<typeof createEventHub>) =>
    readSse(
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => void hub.attach(user.userId, controller, { limits: LIMITS }),
        }),
      ),
    );

  it("delivers an event once when both the commit and its NOTIFY announce it, and one only announced", async () => {
    const hub = hubWithoutCatchUp(t.database);
    const stream = openStream(hub);
    try {
      expect((await stream.next())?.retry).toBe(3000);
      expect((await stream.next())?.event).toBe("ready");
      const [a, b] = [await createTask(t, user.session), await createTask(t, user.session)];
      const first = await inProgress(a, true); // NOTIFY on commit
      hub.committedHere(first); // and this instance's own commit
      const second = await inProgress(b, true); // as if committed by another instance: NOTIFY only
      const ids: bigint[] = [];
      while (!ids.includes(second)) {
        const event = await stream.nextTask();
        if (event.id >= first) ids.push(BigInt(event.id));
      }
      expect(ids).toEqual([first, second]);
    } finally {
      await stream.close();
      await hub.stop();
    }
  });

  it("with no stream open, moves its resume position to an announced event at once", async () => {
    const hub = hubWithoutCatchUp(t.database);
    const task = await createTask(t, user.session);
    let heard: (payload: string) => void = () => undefined;
    // Subscribed after the hub: the same notification reaches the hub first.
    await hub.start();
    const unlisten = await t.database.listen(TASK_EVENTS_CHANNEL, (payload) => {
      heard(payload);
    });
    try {
      const announced = new Promise<string>((resolve) => (heard = resolve));
      const lastId = await inProgress(task, true);
      expect(await announced).toBe(String(lastId));
      // No read of the database stands between the notification and the new position.
      const stream = openStream(hub);
      await stream.next(); // retry
      expect((await stream.next())?.id).toBe(String(lastId));
      await stream.close();
    } finally {
      await unlisten();
      await hub.stop();
    }
  });

  it("starts new streams after the events it was told of, without reading task_events", async () => {
    // No NOTIFY, no catch-up read, and every statement counted: only being told the id can move
    // where a stream opened now starts.
    let executed = 0;
    const db = new Proxy(t.database.db, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property !== "execute" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          executed += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const deaf: Database = {
      ...t.database,
      db,
      listen: () => Promise.resolve(() => Promise.resolve()),
    };
    const hub = hubWithoutCatchUp(deaf);
    await hub.start();
    const lastId = await inProgress(await createTask(t, user.session), false);
    const readsBefore = executed;
    hub.committedHere(lastId);
    const stream = openStream(hub);
    try {
      expect((await stream.next())?.retry).toBe(3000);
      const ready = await stream.next();
      expect(ready?.event).toBe("ready");
      expect(JSON.parse(ready?.data ?? "{}")).toEqual({ last_event_id: String(lastId) });
      expect(executed).toBe(readsBefore);
    } finally {
      await stream.close();
      await hub.stop();
    }
  });
});
