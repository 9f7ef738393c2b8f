import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../src/db/client.ts";
import { createMetrics } from "../src/lib/metrics.ts";
import { appendTaskEvents } from "../src/services/events/append.ts";
import { createEventHub } from "../src/services/events/hub.ts";
import { describeEachDriver } from "./support/drivers.ts";
import { startTestBackend, type TestBackend } from "./support/harness.ts";
import { readSse } from "./support/sse.ts";
import { createTask, setUpTaskUser, type TaskUser } from "./support/tasks.ts";

const LIMITS = { maxPerUser: 5, maxLifetimeMs: 3_600_000 };

describeEachDriver("events committed by this instance (SSE)", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  it("reaches this instance's streams without waiting for its NOTIFY", async () => {
    // A hub that never hears a NOTIFY and whose catch-up read is an hour away: only being told
    // of the commit can bring the event to the stream in time.
    const deaf: Database = {
      ...t.database,
      listen: () => Promise.resolve(() => Promise.resolve()),
    };
    const hub = createEventHub({
      database: deaf,
      metrics: createMetrics(),
      logger: t.backend.deps.logger,
      catchUpMs: 3_600_000,
    });
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
      const lastId = await appendTaskEvents(
        t.database.db,
        [
          {
            userId: user.userId,
            taskId: task.id,
            status: "in_progress",
            source: "webhook",
            payload: { ...task, status: "in_progress" },
            createdAt: new Date(),
          },
        ],
        { announce: false },
      );
      hub.committedHere();
      let event = await stream.nextTask();
      while (event.id < (lastId ?? 0)) event = await stream.nextTask();
      expect(event.id).toBe(lastId);
      expect(event.task.status).toBe("in_progress");
    } finally {
      await stream.close();
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
    const hub = createEventHub({
      database: deaf,
      metrics: createMetrics(),
      logger: t.backend.deps.logger,
      catchUpMs: 3_600_000,
    });
    await hub.start();
    const task = await createTask(t, user.session);
    const lastId = await appendTaskEvents(
      t.database.db,
      [
        {
          userId: user.userId,
          taskId: task.id,
          status: "in_progress",
          source: "webhook",
          payload: { ...task, status: "in_progress" },
          createdAt: new Date(),
        },
      ],
      { announce: false },
    );
    const readsBefore = executed;
    hub.committedHere(lastId);
    const stream = readSse(
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => void hub.attach(user.userId, controller, { limits: LIMITS }),
        }),
      ),
    );
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
