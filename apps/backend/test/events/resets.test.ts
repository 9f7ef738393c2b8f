import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { readSse } from "../support/sse.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/**
 * A client resuming from an event id no replay can serve: newer than any this database has held
 * (its database was restored from a backup since), or older than what retention kept. The stream
 * says `event: reset` instead of replaying and goes on live; the catch-up route says `reset`.
 */
describeEachDriver("live events resumed where no replay can", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t);
    t.emu.control.setQuota(user.namespace, 100);
  });
  afterAll(() => t.close());

  const changesAfter = async (after: string) =>
    (await (
      await t.request(`/api/events/changes?after=${after}`, { session: user.session })
    ).json()) as Record<string, unknown>;

  const resumedFrom = async (id: string) =>
    readSse(
      await t.request("/api/events", { session: user.session, headers: { "Last-Event-ID": id } }),
    );

  /** The user's event ids, oldest first, as the database writes them. */
  const eventIds = async () =>
    (
      await selectRows<{ id: string }>(
        t.database.db,
        sql`select id::text from task_events where user_id = ${user.userId} order by task_events.id`,
      )
    ).map((r) => r.id);

  const newestId = async () => (await eventIds()).at(-1) ?? "0";

  /** A new task, once its submit is over: no event of it is on its way after this. */
  async function waitingTask() {
    const task = await createTask(t, user.session);
    for (let i = 0; i < 250; i += 1) {
      if ((await getTask(t, user.session, task.id)).status === "waiting") return task;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the task was not submitted within 5 s");
  }

  /** A task created now reaches `stream` live, after `afterId`. */
  async function expectLiveAfter(stream: ReturnType<typeof readSse>, afterId: string) {
    const task = await createTask(t, user.session);
    const event = await stream.nextTask();
    expect(event.task.id).toBe(task.id);
    expect(BigInt(event.id)).toBeGreaterThan(BigInt(afterId));
    await stream.close();
  }

  const resetFrame = (reason: string, id: string) => ({
    event: "reset",
    id,
    data: JSON.stringify({ reason, last_event_id: id }),
  });

  it("answers a cursor of 0 on a new database without a reset", async () => {
    expect(await changesAfter("0")).toEqual({ tasks: [], last_event_id: "0", more: false });
  });

  it("sends a stream resumed with an id newer than any the database has held a reset, then live events", async () => {
    await waitingTask();
    const newest = await newestId();
    const stream = await resumedFrom("99999");
    expect(await stream.next()).toEqual({ retry: 3000 });
    expect(await stream.next()).toEqual(resetFrame("ahead_of_server", newest));
    await expectLiveAfter(stream, newest);
  });

  it("sends a stream resumed from before events retention deleted a reset, then live events", async () => {
    await waitingTask();
    const [cursor = "", pruned = ""] = (await eventIds()).slice(-3);
    // The task's two newest events are past the retention age; the oldest stays.
    await t.database.db.execute(
      sql`update task_events set created_at = created_at - interval '400 days'
          where id in (${cursor}::bigint, ${pruned}::bigint)`,
    );
    expect((await t.backend.deps.services.retention.runNow()).task_events).toBe(2);
    const newest = await newestId();
    const stream = await resumedFrom(cursor);
    expect(await stream.next()).toEqual({ retry: 3000 });
    expect(await stream.next()).toEqual(resetFrame("older_than_retention", newest));
    await expectLiveAfter(stream, newest);
  });

  it("answers the catch-up with the reason and the newest id in both cases, and without one otherwise", async () => {
    await waitingTask();
    const newest = await newestId();
    const prunedThrough = await selectRows<{ id: string }>(
      t.database.db,
      sql`select pruned_through::text as id from task_event_marks`,
    );
    const pruned = prunedThrough[0]?.id ?? "";
    const reset = (reason: string) => ({
      tasks: [],
      last_event_id: newest,
      more: false,
      reset: reason,
    });
    expect(await changesAfter("99999")).toEqual(reset("ahead_of_server"));
    expect(await changesAfter(String(BigInt(pruned) - 1n))).toEqual(reset("older_than_retention"));
    // From the highest pruned id itself nothing is missing.
    const fromPruned = await changesAfter(pruned);
    expect(fromPruned).not.toHaveProperty("reset");
    expect(fromPruned).toMatchObject({ last_event_id: newest, more: false });
    expect(await changesAfter(newest)).toEqual({ tasks: [], last_event_id: newest, more: false });
  });

  it("resumes from the id of a deleted task's last event as usual: it was held, not missed", async () => {
    const gone = await waitingTask();
    const held = await newestId();
    // What the purge does once the undo window has passed: its events go with it.
    await t.database.db.execute(sql`delete from tasks where id = ${gone.id}`);
    expect(BigInt(await newestId())).toBeLessThan(BigInt(held));
    expect(await changesAfter(held)).toEqual({ tasks: [], last_event_id: held, more: false });
    const stream = await resumedFrom(held);
    expect(await stream.next()).toEqual({ retry: 3000 });
    await expectLiveAfter(stream, held); // the next frame is a live task event, no reset
  });

  it("sends open streams a reset when the database goes back under them (a backup restored while it runs)", async () => {
    await waitingTask();
    const backup = await newestId(); // a backup taken now
    const stream = readSse(await t.request("/api/events", { session: user.session }));
    expect(await stream.next()).toEqual({ retry: 3000 });
    expect((await stream.next())?.event).toBe("ready");
    await waitingTask(); // seen live, then lost with the restore
    // The backup restored: what came after it is gone, the marks and the sequence are its own.
    await t.database.db.execute(sql`delete from task_events where id > ${backup}::bigint`);
    await t.database.db.execute(sql`update task_event_marks set
      deleted_through = least(deleted_through, ${backup}::bigint),
      pruned_through = least(pruned_through, ${backup}::bigint)`);
    await t.database.db.execute(sql`select setval('task_events_id_seq', ${backup}::bigint)`);
    await t.backend.deps.services.liveEvents.poke();
    let frame = await stream.next();
    while (frame?.event === "task" || frame?.comment === "ping") frame = await stream.next();
    expect(frame).toEqual(resetFrame("ahead_of_server", backup));
    await expectLiveAfter(stream, backup);
  });

  it("documents the reset frame and the catch-up's reset in the OpenAPI document", async () => {
    const doc = (await (await t.app.request("/openapi.json")).json()) as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
      paths: Record<string, { get: { description: string } }>;
    };
    const reasons = ["ahead_of_server", "older_than_retention"];
    expect(doc.components.schemas.EventReset?.properties.reason?.enum).toEqual(reasons);
    expect(doc.components.schemas.EventChanges?.properties.reset?.enum).toEqual(reasons);
    expect(doc.paths["/api/events"]?.get.description).toContain("`event: reset`");
    expect(doc.paths["/api/events/changes"]?.get.description).toContain(
      '"reset":"ahead_of_server"',
    );
  });
});
