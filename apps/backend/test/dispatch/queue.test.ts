import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import {
  createTask,
  getTask,
  setUpTaskUser,
  submitCount,
  type TaskUser,
} from "../support/tasks.ts";

describeEachDriver("local queue and cancel", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t, { webhookSecret: true });
  });
  afterAll(() => t.close());

  const cancel = (id: string) =>
    t.request(`/api/tasks/${id}/cancel`, { method: "POST", session: user.session });
  const quota = async () =>
    (await (await t.request("/api/quota", { session: user.session })).json()) as {
      available: number | null;
      queued: number;
      namespace: string;
    };
  /** Runs the emulator until none of this account's tasks is active. */
  async function finishActive(): Promise<void> {
    for (
      let i = 0;
      i < 20 &&
      t.emu.control
        .listTasks({ namespace: user.namespace })
        .some((x) => x.status === "waiting" || x.status === "in_progress");
      i += 1
    ) {
      await t.emu.control.clock.advance(5_000);
    }
  }

  it("queues a task beyond the platform's quota and submits it when a running task ends", async () => {
    t.emu.control.setQuota(user.namespace, 2);
    const first = await createTask(t, user.session);
    const second = await createTask(t, user.session);
    const submits = submitCount(t);
    const third = await createTask(t, user.session);
    expect([first.status, second.status, third.status]).toEqual(["waiting", "waiting", "queued"]);
    expect(submitCount(t)).toBe(submits);
    expect(await quota()).toMatchObject({ available: 0, queued: 1, namespace: user.namespace });

    // The first two run to success (webhooks); the end of one drains the queue, no worker round needed.
    await t.emu.control.clock.advance(10_000);
    await t.backend.deps.services.taskQueue.settle();
    const drained = await getTask(t, user.session, third.id);
    expect(["waiting", "in_progress", "success"]).toContain(drained.status);
    expect(drained.platform_task_id).not.toBeNull();
    await finishActive();
  });

  it("puts a task back in the queue when the platform answers the submit with quota exhausted", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const queue = t.backend.deps.services.taskQueue;
    const task = await createTask(t, user.session);
    expect(task.status).toBe("queued");
    // Claim and submit as if the quota looked free: the platform refuses, the task waits again.
    const submits = submitCount(t);
    await queue.drain({ userId: user.userId, namespace: user.namespace }, 1);
    expect(submitCount(t)).toBe(submits + 1);
    expect(await getTask(t, user.session, task.id)).toMatchObject({
      status: "queued",
      platform_task_id: null,
    });
    t.emu.control.setQuota(user.namespace, 2);
    await queue.runOnce();
    expect((await getTask(t, user.session, task.id)).status).toBe("waiting");
    await finishActive();
  });

  it("drains, among the accounts whose tasks just ended, only those with queued tasks", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const queue = t.backend.deps.services.taskQueue;
    const task = await createTask(t, user.session);
    expect(task.status).toBe("queued");
    // Room for it even if an earlier test's task is still running on a slow machine: a refused
    // submit would be tried again, and counted twice.
    t.emu.control.setQuota(user.namespace, 10);
    const submits = submitCount(t);
    // The same user in a namespace with nothing queued, and another user: no drain, no submit.
    queue.kickFreed([
      { userId: user.userId, namespace: `${user.namespace}-other` },
      { userId: user.userId + 1_000, namespace: user.namespace },
    ]);
    await queue.settle();
    expect(submitCount(t)).toBe(submits);
    expect((await getTask(t, user.session, task.id)).status).toBe("queued");
    queue.kickFreed([
      { userId: user.userId + 1_000, namespace: user.namespace },
      { userId: user.userId, namespace: user.namespace },
    ]);
    await queue.settle(); // waits for the read that starts the drains, then for the drains
    expect(submitCount(t)).toBe(submits + 1);
    expect((await getTask(t, user.session, task.id)).status).toBe("waiting");
    await finishActive();
  });

  it("rejects, saying why, the queued tasks of an access token that no longer exists, and submits the account's others", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const orphan = await createTask(t, user.session);
    const other = await createTask(t, user.session);
    expect([orphan.status, other.status]).toEqual(["queued", "queued"]);
    // As if the token had been deleted on the platform after the task was queued.
    await t.database.db.execute(sql`update tasks set token_id = 987654 where id = ${orphan.id}`);
    t.emu.control.setQuota(user.namespace, 2);
    await t.backend.deps.services.taskQueue.runOnce();
    expect(await getTask(t, user.session, orphan.id)).toMatchObject({
      status: "rejected",
      platform_task_id: null,
      error: expect.stringContaining("Access token 987654 is not available") as unknown,
    });
    expect((await getTask(t, user.session, other.id)).status).toBe("waiting");
    await finishActive();
  });

  it("cancels a queued task locally without calling the platform", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const task = await createTask(t, user.session);
    const calls = t.platformCalls.length;
    const response = await cancel(task.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "cancelled" });
    expect(t.platformCalls.length).toBe(calls);
    t.emu.control.setQuota(user.namespace, 2);
    await t.backend.deps.services.taskQueue.runOnce();
    expect((await getTask(t, user.session, task.id)).status).toBe("cancelled");
  });

  it("cancels a waiting task on the platform", async () => {
    const task = await createTask(t, user.session);
    expect(task.status).toBe("waiting");
    const response = await cancel(task.id);
    expect(response.status).toBe(200);
    expect(((await response.json()) as TaskJson).status).toBe("cancelled");
    expect(t.emu.control.getTask(task.platform_task_id ?? "")?.status).toBe("cancelled");
  });

  it("cancels an in_progress task on the platform", async () => {
    const task = await createTask(t, user.session);
    await t.emu.control.clock.advance(1_500);
    expect((await getTask(t, user.session, task.id)).status).toBe("in_progress");
    const response = await cancel(task.id);
    expect(response.status).toBe(200);
    expect(((await response.json()) as TaskJson).status).toBe("cancelled");
  });

  it("refuses to cancel a finished task with 409 not_cancellable", async () => {
    const task = await createTask(t, user.session);
    await t.emu.control.clock.advance(10_000);
    expect((await getTask(t, user.session, task.id)).status).toBe("success");
    const response = await cancel(task.id);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "not_cancellable", status: "success" });
  });

  it("hides another user's task (404)", async () => {
    const task = await createTask(t, user.session);
    const other = await t.signIn({ login: "ada" });
    const response = await t.request(`/api/tasks/${task.id}`, { session: other.sessionToken });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "task_not_found" });
    expect(
      (
        await t.request(`/api/tasks/${task.id}/cancel`, {
          method: "POST",
          session: other.sessionToken,
        })
      ).status,
    ).toBe(404);
    await finishActive();
  });

  it("lists tasks newest first in pages, filtered by status", async () => {
    const response = await t.request("/api/tasks?limit=2", { session: user.session });
    const page = (await response.json()) as { tasks: TaskJson[]; next_cursor: string | null };
    expect(page.tasks).toHaveLength(2);
    expect(page.next_cursor).toEqual(expect.any(String));
    const rest = (await (
      await t.request(`/api/tasks?limit=100&cursor=${page.next_cursor ?? ""}`, {
        session: user.session,
      })
    ).json()) as { tasks: TaskJson[]; next_cursor: string | null };
    const all = [...page.tasks, ...rest.tasks];
    expect(rest.next_cursor).toBeNull();
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length);
    const created = all.map((x) => x.created_at);
    expect([...created].sort().reverse()).toEqual(created);

    const cancelled = (await (
      await t.request("/api/tasks?status=cancelled", { session: user.session })
    ).json()) as { tasks: TaskJson[] };
    expect(cancelled.tasks.length).toBeGreaterThan(0);
    expect(cancelled.tasks.every((x) => x.status === "cancelled")).toBe(true);
    expect((await t.request("/api/tasks?status=bogus", { session: user.session })).status).toBe(
      400,
    );
    expect((await t.request("/api/tasks?cursor=garbage", { session: user.session })).status).toBe(
      400,
    );
  });
});
