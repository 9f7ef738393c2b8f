import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createEventFeed, type FeedEvent } from "../../src/services/events/feed.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { appendInProgress, createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/**
 * The instance's reader of task_events (services/events/feed.ts), driven by hand: notifications
 * are delivered by the test, and every query the feed sends is counted.
 */
describeEachDriver("event feed", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  async function append(): Promise<bigint> {
    return appendInProgress(t, user, await createTask(t, user.session), { announce: false });
  }

  /** A feed on a database whose notifications the test delivers, and which counts its queries. */
  async function feedUnderTest(listening: () => boolean) {
    let notify: (payload: string) => void = () => undefined;
    let queries = 0;
    const counted = new Proxy(t.database.db, {
      get(target, property, receiver) {
        if (property === "execute" || property === "select") queries += 1;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const database: Database = {
      ...t.database,
      db: counted,
      listen: (_channel, onPayload) => {
        notify = onPayload;
        return Promise.resolve(() => Promise.resolve());
      },
    };
    const seen: FeedEvent[] = [];
    const feed = createEventFeed({
      database,
      logger: createLogger("silent"),
      catchUpMs: 3_600_000,
      listening,
      dispatch: (event) => seen.push(event),
    });
    await feed.start();
    return {
      feed,
      seen,
      notify: (p: string) => {
        notify(p);
      },
      queries: () => queries,
    };
  }

  it("with no stream here, a notification moves the cursor without reading", async () => {
    const { feed, notify, queries } = await feedUnderTest(() => false);
    try {
      const id = await append();
      expect(feed.cursor).toBeLessThan(id);
      const before = queries();
      notify(String(id));
      expect(feed.cursor).toBe(id);
      await new Promise((resolve) => setTimeout(resolve, 50)); // a read would have started by now
      expect(queries()).toBe(before);
    } finally {
      await feed.stop();
    }
  });

  it("with a stream here, a notification reads the new events and hands each on", async () => {
    const { feed, seen, notify } = await feedUnderTest(() => true);
    try {
      const first = await append();
      const second = await append();
      notify(String(second));
      await feed.readNew();
      // Every event after the start, in id order (the backend's own work may add some).
      const ids = seen.map((e) => e.id);
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(ids).toEqual(expect.arrayContaining([first, second]));
      expect(feed.cursor).toBeGreaterThanOrEqual(second);
    } finally {
      await feed.stop();
    }
  });

  it("an empty notification still reads (whatever was committed)", async () => {
    let streams = false;
    const { feed, seen, notify } = await feedUnderTest(() => streams);
    try {
      streams = true;
      const id = await append();
      notify("");
      await feed.readNew();
      expect(seen.map((e) => e.id)).toContain(id);
    } finally {
      await feed.stop();
    }
  });
});
