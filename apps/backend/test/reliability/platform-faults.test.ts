import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { UNKNOWN_SUBMIT_MESSAGE } from "../../src/services/dispatch/submit.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import {
  createTask,
  getTask,
  setUpTaskUser,
  submitCount,
  type TaskUser,
} from "../support/tasks.ts";

const BASE_DELAY_MS = 100;

/**
 * The platform's task endpoints failing and recovering (the emulator's task-request faults: a
 * 5xx answer, or a request that hangs). The platform client's back-off sleeps are recorded and
 * skipped (the schedule is what is checked, not the waiting); the domain clock is the emulator's.
 */
describeEachDriver("platform task endpoints failing and recovering", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  const sleeps: number[] = [];
  // A response the platform produced but the backend never saw (set per test).
  let loseNextSubmitAnswer: "502" | "reset" | undefined;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      platformClient: {
        retry: { baseDelayMs: BASE_DELAY_MS },
        timeoutMs: 1_000,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      },
      rewritePlatformResponse: (path, response) => {
        if (!path.endsWith("/music/generations") || !loseNextSubmitAnswer) return response;
        const how = loseNextSubmitAnswer;
        loseNextSubmitAnswer = undefined;
        if (how === "502") return new Response("Bad Gateway", { status: 502 });
        throw new TypeError("fetch failed", {
          cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
        });
      },
    });
    // No webhook secret: this account's tasks are reported by polling alone.
    user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    t.emu.control.setQuota(user.namespace, 100);
  });
  beforeEach(() => {
    sleeps.length = 0;
    t.emu.control.faults.clear();
  });
  afterAll(() => t.close());

  const reconcile = () => t.backend.deps.services.reconciler.runOnce();
  const taskQueries = () =>
    t.platformCalls.filter((c) => c.method === "GET" && c.path.startsWith("/api/v1/task/"));
  const pollState = async (id: string) =>
    (
      await selectRows<{ poll_errors: number; next_poll_at: string }>(
        t.database.db,
        sql`select poll_errors, next_poll_at::text from tasks where id = ${id}`,
      )
    )[0];

  it("retries a task query answered 503 with a growing back-off, and the poll succeeds", async () => {
    const task = await createTask(t, user.session);
    await t.emu.control.clock.advance(10_000);
    const before = taskQueries().length;
    t.emu.control.faults.failNextTaskRequests(3, "5xx", 503);
    expect(await reconcile()).toBe(1);

    const calls = taskQueries().slice(before);
    expect(calls.map((c) => c.status)).toEqual([503, 503, 503, 200]);
    // Equal jitter: retry n waits between half and all of BASE × 2^n, so the waits grow.
    expect(sleeps).toHaveLength(3);
    sleeps.forEach((ms, n) => {
      expect(ms).toBeGreaterThanOrEqual((BASE_DELAY_MS * 2 ** n) / 2);
      expect(ms).toBeLessThanOrEqual(BASE_DELAY_MS * 2 ** n);
    });
    expect((await getTask(t, user.session, task.id)).status).toBe("success");
    expect((await pollState(task.id))?.poll_errors).toBe(0);
  });

  it("gives up on a query that hangs after the request timeout, and the retry gets the answer", async () => {
    const task = await createTask(t, user.session);
    await t.emu.control.clock.advance(10_000);
    const before = taskQueries().length;
    t.emu.control.faults.failNextTaskRequests(1, "hang");
    expect(await reconcile()).toBe(1);
    // The hung request never answered (0: the client left after its timeout); the retry did.
    expect(
      taskQueries()
        .slice(before)
        .map((c) => c.status),
    ).toEqual([0, 200]);
    expect(sleeps).toHaveLength(1);
    expect((await getTask(t, user.session, task.id)).status).toBe("success");
  });

  it("backs off while every query fails, and the reconciler catches up once the platform recovers", async () => {
    const task = await createTask(t, user.session);
    t.emu.control.faults.failNextTaskRequests(10_000, "5xx", 503);
    const delays: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      await t.emu.control.clock.advance(61_000);
      expect(await reconcile()).toBe(1);
      const state = await pollState(task.id);
      expect(state?.poll_errors).toBe(round + 1);
      delays.push(new Date(state?.next_poll_at ?? 0).getTime() - t.clock.now());
    }
    // 5 s, 10 s, 20 s, 40 s (±20 %): each failed round waits longer before the next.
    for (let i = 1; i < delays.length; i += 1)
      expect(delays[i] ?? 0).toBeGreaterThan(delays[i - 1] ?? 0);
    expect((await getTask(t, user.session, task.id)).status).toBe("waiting");

    t.emu.control.faults.clear();
    await t.emu.control.clock.advance(61_000);
    expect(await reconcile()).toBe(1);
    const done = await getTask(t, user.session, task.id);
    expect(done.status).toBe(t.emu.control.getTask(task.platform_task_id ?? "")?.status);
    expect(done.status).toBe("success");
    expect((await pollState(task.id))?.poll_errors).toBe(0);
  });

  it.each(["502", "reset"] as const)(
    "never sends a submit again when the platform created the task but its answer was lost (%s)",
    async (how) => {
      const webhookUser = await setUpTaskUser(t, { webhookSecret: true });
      t.emu.control.setQuota(webhookUser.namespace, 100);
      const tasksBefore = t.emu.control.listTasks().length;
      const submits = submitCount(t);
      loseNextSubmitAnswer = how;
      const task = await createTask(t, webhookUser.session, { prompt: `lost answer ${how}` });
      // Either marked unknown, or — when the task's first callback beat the failed answer —
      // already adopted from that callback. Never queued for another submit.
      if (task.status === "unknown") expect(task.error).toBe(UNKNOWN_SUBMIT_MESSAGE);
      else expect(task.status).toBe("waiting");
      expect(submitCount(t)).toBe(submits + 1);

      // Later rounds of the queue and the reconciler never resubmit it.
      await t.backend.deps.services.taskQueue.runOnce();
      await reconcile();
      await t.emu.control.clock.advance(10_000);
      await t.backend.deps.services.taskQueue.runOnce();
      expect(submitCount(t)).toBe(submits + 1);
      const created = t.emu.control.listTasks().slice(tasksBefore);
      expect(created).toHaveLength(1);

      // The platform's callbacks carry the task's key: the task is adopted and finishes.
      const after = await getTask(t, webhookUser.session, task.id);
      expect(after.platform_task_id).toBe(created[0]?.task_id);
      expect(after.status).toBe(created[0]?.status);
      expect(after.status).toBe("success");
    },
  );
});
