import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../../../test/support/drivers.ts";
import { startTestBackend, type TestBackend } from "../../../test/support/harness.ts";
import {
  createTask,
  getTask,
  setUpTaskUser,
  submitCount,
  type TaskUser,
} from "../../../test/support/tasks.ts";
import type { Task } from "../../schemas/task.ts";
import { createTaskQueue, type TaskQueue } from "./queue.ts";
import { WAKE_SLACK_MS, type WakeTimers } from "./queue-wake.ts";
import { createTaskRecord } from "../tasks/record.ts";
import { MAX_SUBMIT_HOLD_MS } from "./submit.ts";

describeEachDriver("the local queue after a platform refusal's Retry-After", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  /** The `Retry-After` the platform's 429 to a submit carries; none when undefined. */
  let retryAfter: (() => string) | undefined;
  /** When set, the quota check answers 429 with this `Retry-After`. */
  let quotaRetryAfter: string | undefined;

  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      secondInstance: true,
      // The emulator's quota refusal has no Retry-After; the live platform's may (PLATFORM-FACTS).
      rewritePlatformResponse: (path, response) => {
        if (quotaRetryAfter !== undefined && path.endsWith("/v1/tasks/available-quota"))
          return Response.json(
            { error: "rate_limited", message: "Too many requests" },
            { status: 429, headers: { "Retry-After": quotaRetryAfter } },
          );
        if (!retryAfter || !path.endsWith("/music/generations") || response.status !== 429)
          return response;
        const headers = new Headers(response.headers);
        headers.set("Retry-After", retryAfter());
        return new Response(response.body, { status: response.status, headers });
      },
    });
    user = await setUpTaskUser(t);
  });
  afterAll(() => t.close());

  const account = () => ({ userId: user.userId, namespace: user.namespace });
  const queue = () => t.backend.deps.services.taskQueue;
  const status = async (task: Task) => (await getTask(t, user.session, task.id)).status;

  const quotaChecks = () =>
    t.platformCalls.filter((call) => call.path.endsWith("/v1/tasks/available-quota")).length;

  /** Queues a task and has the platform refuse its submit (quota full) with `value`. */
  async function refusedWith(value: string, by: TaskQueue = queue()): Promise<Task> {
    t.emu.control.setQuota(user.namespace, 0);
    const task = await createTask(t, user.session);
    expect(task.status).toBe("queued");
    retryAfter = () => value;
    const submits = submitCount(t);
    await by.drain(account(), 1); // as if the quota looked free
    expect(submitCount(t)).toBe(submits + 1);
    expect(await status(task)).toBe("queued");
    retryAfter = undefined;
    t.emu.control.setQuota(user.namespace, 10); // room again: only the hold keeps tasks back
    return task;
  }

  /** Rounds leave `task` queued until `heldMs` have passed, and submit it at that moment. */
  async function expectHeldFor(task: Task, heldMs: number): Promise<void> {
    const submits = submitCount(t);
    await t.emu.control.clock.advance(heldMs - 1_000);
    await queue().runOnce();
    expect(submitCount(t)).toBe(submits);
    expect(await status(task)).toBe("queued");

    await t.emu.control.clock.advance(1_000);
    await queue().runOnce();
    expect(submitCount(t)).toBe(submits + 1);
    expect(await status(task)).toBe("waiting");
  }

  // Each test starts with nothing held or queued: past any hold, the queue submits what is left.
  afterEach(async () => {
    retryAfter = undefined;
    quotaRetryAfter = undefined;
    t.emu.control.setQuota(user.namespace, 10);
    await t.emu.control.clock.advance(MAX_SUBMIT_HOLD_MS);
    await queue().runOnce();
  });

  it("keeps a queued task back until the Retry-After (seconds) of its refused submit has passed", async () => {
    const task = await refusedWith("120");
    await expectHeldFor(task, 120_000);
  });

  it("reads a Retry-After given as an HTTP date", async () => {
    const task = await refusedWith(new Date(t.clock.now() + 120_000).toUTCString());
    const submits = submitCount(t);
    await t.emu.control.clock.advance(119_000); // the date drops the milliseconds: < 1 s short
    await queue().runOnce();
    expect(await status(task)).toBe("queued");

    await t.emu.control.clock.advance(1_000);
    await queue().runOnce();
    expect(submitCount(t)).toBe(submits + 1);
    expect(await status(task)).toBe("waiting");
  });

  it("keeps a task created while the account is held back too, though the quota has room", async () => {
    await refusedWith("120");
    const submits = submitCount(t);
    const later = await createTask(t, user.session);
    expect(later.status).toBe("queued");
    expect(submitCount(t)).toBe(submits);
  });

  it("holds the account on another instance sharing the database (or after a restart)", async () => {
    const task = await refusedWith("120");
    if (!t.second) throw new Error("the harness opened no second instance");
    const other = t.second.backend.deps.services.taskQueue;
    const submits = submitCount(t);
    await other.runOnce();
    await other.drain(account(), 10);
    expect(submitCount(t)).toBe(submits);

    await t.emu.control.clock.advance(120_000);
    await other.runOnce();
    expect(submitCount(t)).toBe(submits + 1);
    expect(await status(task)).toBe("waiting");
  });

  it("keeps the account held when the refused task is cancelled", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const refused = await createTask(t, user.session);
    await t.emu.control.clock.advance(1_000); // older by a second: first in line
    // The older task is the one submitted and refused; this one waits behind it.
    const behind = await refusedWith("120");
    const cancelled = await t.request(`/api/tasks/${refused.id}/cancel`, {
      method: "POST",
      session: user.session,
    });
    expect(cancelled.status).toBe(200);
    const submits = submitCount(t);
    await queue().runOnce();
    expect(submitCount(t)).toBe(submits);
    expect(await status(behind)).toBe("queued");
  });

  it("keeps the account's queued tasks back when the quota check before their submit answers 429 with Retry-After", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const task = await createTask(t, user.session);
    expect(task.status).toBe("queued");
    quotaRetryAfter = "120";
    const checks = quotaChecks();
    await queue().runOnce();
    expect(quotaChecks()).toBe(checks + 1);
    quotaRetryAfter = undefined;
    t.emu.control.setQuota(user.namespace, 10);

    await expectHeldFor(task, 120_000);
    expect(quotaChecks()).toBe(checks + 2); // not asked again while held: once, at its end
  });

  it("asks the quota once when it answers 429 with a short Retry-After, and holds instead of waiting in the round", async () => {
    t.emu.control.setQuota(user.namespace, 0);
    const task = await createTask(t, user.session);
    quotaRetryAfter = "30"; // longer than the client waits out itself (5 s): one check, a hold
    const checks = quotaChecks();
    await queue().runOnce();
    quotaRetryAfter = undefined;
    expect(quotaChecks()).toBe(checks + 1);
    t.emu.control.setQuota(user.namespace, 10);
    await expectHeldFor(task, 30_000);
  });

  it("stores a new task whose quota check answers 429 with Retry-After, queued and held that long", async () => {
    quotaRetryAfter = "120";
    const checks = quotaChecks();
    const task = await createTask(t, user.session);
    quotaRetryAfter = undefined;
    expect(task.status).toBe("queued");
    expect(quotaChecks()).toBe(checks + 1);
    await expectHeldFor(task, 120_000);
  });

  it("submits a held account's tasks on this instance when the hold ends, without waiting for a round", async () => {
    const armed: { wake: () => void; ms: number }[] = [];
    const wakeTimers: WakeTimers = {
      set: (wake, ms) => armed.push({ wake, ms }),
      clear: () => undefined,
    };
    // A queue of its own, to fire its wake by hand; its rounds run (`start`) but are 10 s apart.
    const { services } = t.backend.deps;
    const own = createTaskQueue(
      {
        ...t.backend.deps,
        record: createTaskRecord(t.backend.deps),
        proxyTokens: services.proxyTokens,
        selections: services.selections,
        webhookSecrets: services.webhookSecrets,
      },
      { wakeTimers },
    );
    await own.start();
    try {
      const task = await refusedWith("120", own);
      expect(armed.map((timer) => timer.ms)).toEqual([120_000 + WAKE_SLACK_MS]);
      const submits = submitCount(t);
      await t.emu.control.clock.advance(120_000);
      expect(submitCount(t)).toBe(submits); // no round ran

      armed[0]?.wake();
      await own.settle();
      expect(submitCount(t)).toBe(submits + 1);
      expect(await status(task)).toBe("waiting");
    } finally {
      await own.stop();
    }
  });
});
