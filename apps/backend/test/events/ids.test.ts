import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { readSse } from "../support/sse.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/** Postgres bigint's largest value: the largest id task_events can hold. */
const BIGINT_MAX = "9223372036854775807";

/**
 * Event ids past 2^53, where a JavaScript number cannot hold every integer: the sequence is set
 * so the next id is 2^53 + 1, which a number would round to 2^53.
 */
describeEachDriver("event ids above 2^53", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t);
    await t.database.db.execute(sql`select setval('task_events_id_seq', 9007199254740992)`);
  });
  afterAll(() => t.close());

  /** The user's event ids after `after`, as the database writes them. */
  const idsAfter = async (after: string) =>
    (
      await selectRows<{ id: string }>(
        t.database.db,
        sql`select id::text from task_events where user_id = ${user.userId}
            and id > ${after}::bigint order by task_events.id`,
      )
    ).map((r) => r.id);

  /** The ids of the next `count` task frames, as sent. */
  async function taskIds(stream: ReturnType<typeof readSse>, count: number): Promise<string[]> {
    const ids: string[] = [];
    while (ids.length < count) {
      const frame = await stream.next();
      if (!frame) throw new Error("SSE stream ended");
      if (frame.event === "task" && frame.id) ids.push(frame.id);
    }
    return ids;
  }

  it("streams, replays and catches up with the exact ids of events past 2^53", async () => {
    const live = readSse(await t.request("/api/events", { session: user.session }));
    await live.next(); // retry
    await live.next(); // ready
    await createTask(t, user.session);
    const stored = await idsAfter("0");
    expect(stored[0]).toBe("9007199254740993");
    expect(await taskIds(live, stored.length)).toEqual(stored);
    await live.close();

    const [first = ""] = stored;
    const resumed = readSse(
      await t.request("/api/events", {
        session: user.session,
        headers: { "Last-Event-ID": first },
      }),
    );
    expect(await taskIds(resumed, stored.length - 1)).toEqual(stored.slice(1));
    await resumed.close();

    const changes = await t.request(`/api/events/changes?after=${first}`, {
      session: user.session,
    });
    expect(await changes.json()).toMatchObject({ last_event_id: stored.at(-1), more: false });
  });

  it("accepts Postgres' largest bigint as an event id", async () => {
    const changes = await t.request(`/api/events/changes?after=${BIGINT_MAX}`, {
      session: user.session,
    });
    expect(changes.status).toBe(200);
    const stream = await t.request("/api/events", {
      session: user.session,
      headers: { "Last-Event-ID": BIGINT_MAX },
    });
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });

  it("refuses an event id past Postgres' largest bigint", async () => {
    const past = "9223372036854775808";
    const changes = await t.request(`/api/events/changes?after=${past}`, {
      session: user.session,
    });
    expect(changes.status).toBe(400);
    const stream = await t.request("/api/events", {
      session: user.session,
      headers: { "Last-Event-ID": past },
    });
    expect(stream.status).toBe(400);
    expect(await stream.json()).toMatchObject({ error: "invalid_request" });
  });
});
