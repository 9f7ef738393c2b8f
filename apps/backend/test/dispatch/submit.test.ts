import { errorFromResponse } from "@overture/core/errors";
import { validateMusicParams } from "@overture/core/music";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { proxyTokens } from "../../src/db/schema/index.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { UNKNOWN_SUBMIT_MESSAGE } from "../../src/services/dispatch/submit.ts";
import {
  createTask,
  getTask,
  pollCount,
  setUpTaskUser,
  submitCount,
  type TaskUser,
} from "../support/tasks.ts";

describeEachDriver("task submit and results", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  it("refuses a task before an access token is chosen", async () => {
    const { sessionToken } = await t.signIn({ login: "ada" });
    const response = await t.request("/api/tasks", {
      method: "POST",
      session: sessionToken,
      body: JSON.stringify({ prompt: "x" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "no_token_selected" });
  });

  it("refuses invalid music parameters with one entry per field", async () => {
    const user = await setUpTaskUser(t);
    const response = await t.request("/api/tasks", {
      method: "POST",
      session: user.session,
      body: JSON.stringify({ prompt: "x", duration: 1_000, scheduler_type: "nope" }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: string;
      fields: { field: string; code: string }[];
    };
    expect(body.error).toBe("invalid_parameters");
    expect(body.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "duration", code: "range", min: 30, max: 240 }),
        expect.objectContaining({ field: "scheduler_type", code: "option" }),
      ]),
    );
  });

  it("answers refused music parameters with core's field errors, each named in the message", async () => {
    const user = await setUpTaskUser(t);
    const input = { prompt: "x", duration: "1000", seeds: "7, x", durtion: 60 };
    const response = await t.request("/api/tasks", {
      method: "POST",
      session: user.session,
      body: JSON.stringify(input),
    });
    const validation = validateMusicParams(input);
    const errors = validation.ok ? [] : validation.errors;
    expect(errors).toHaveLength(3);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid_parameters",
      message: `Invalid music parameters: ${errors.map((e) => e.message).join("; ")}`,
      fields: errors,
    });
  });

  it.each([
    ["a list", "[]"],
    ["text", '"lofi"'],
    ["null", "null"],
  ])("refuses %s for a body as an invalid request, not as music parameters", async (_, body) => {
    const user = await setUpTaskUser(t);
    const response = await t.request("/api/tasks", { method: "POST", session: user.session, body });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_request",
      message: expect.stringMatching(/^Invalid json: json: /) as unknown,
      fields: [{ field: "json", message: expect.any(String) as unknown }],
    });
  });

  it("submits with a callback URL when the account has a webhook secret, and reaches success by webhooks alone", async () => {
    const user = await setUpTaskUser(t, { webhookSecret: true });
    const polls = pollCount(t);
    const task = await createTask(t, user.session);
    expect(task).toMatchObject({
      status: "waiting",
      webhook_expected: true,
      namespace: user.namespace,
    });
    expect(task.platform_task_id).toEqual(expect.any(String));

    await t.emu.control.clock.advance(10_000);
    const done = await getTask(t, user.session, task.id);
    expect(done).toMatchObject({ status: "success", error: null });
    expect(done.file_url).toMatch(/^http:\/\/127\.0\.0\.1:4010\/files\//);
    expect(done.finished_at).not.toBeNull();
    expect(pollCount(t)).toBe(polls);
    const delivery = t.emu.control.listDeliveries({ taskId: task.platform_task_id ?? "" });
    expect(delivery.length).toBeGreaterThan(0);
  });

  it("sends X-WebHook as {PUBLIC_URL}/webhooks/platform?k=<key>, a key of its own per task in unreserved characters", async () => {
    const user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 100);
    const urls = [];
    for (const prompt of ["first", "second"]) {
      const task = await createTask(t, user.session, { prompt });
      urls.push(t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url ?? "");
    }
    const keys = urls.map((url) => {
      const match = /^(.*)\?k=([^&#]*)$/.exec(url);
      expect(match?.[1]).toBe(`${t.config.publicUrl}/webhooks/platform`);
      return match?.[2] ?? "";
    });
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("sends no X-WebHook when the account has no webhook secret", async () => {
    const user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    t.emu.control.setQuota(user.namespace, 100);
    const task = await createTask(t, user.session);
    expect(task.webhook_expected).toBe(false);
    expect(t.emu.control.getTask(task.platform_task_id ?? "")?.webhook_url).toBeNull();
  });

  it("submits without a callback URL when the account has no secret, and reaches success by polling", async () => {
    const user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    const submits = submitCount(t);
    const task = await createTask(t, user.session);
    expect(task).toMatchObject({ status: "waiting", webhook_expected: false });
    expect(submitCount(t)).toBe(submits + 1);

    for (let i = 0; i < 10; i += 1) {
      await t.emu.control.clock.advance(10_000);
      await t.backend.deps.services.reconciler.runOnce();
    }
    const done = await getTask(t, user.session, task.id);
    expect(done.status).toBe("success");
    expect(done.file_url).toEqual(expect.any(String));
    expect(done.file_expires_at).not.toBeNull();
    expect(t.emu.control.listDeliveries({ taskId: task.platform_task_id ?? "" })).toEqual([]);
  });

  it("polls a task whose webhooks were lost, but only as a slow safety net", async () => {
    const user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.faults.webhooks = { drop: true };
    try {
      const task = await createTask(t, user.session);
      expect(task.webhook_expected).toBe(true);
      await t.emu.control.clock.advance(10_000);
      expect(t.emu.control.getTask(task.platform_task_id ?? "")?.status).toBe("success");
      // No poll before the first safety-net check (60 s after the submit).
      expect(await t.backend.deps.services.reconciler.runOnce()).toBe(0);
      expect((await getTask(t, user.session, task.id)).status).not.toBe("success");
      await t.emu.control.clock.advance(60_000);
      expect(await t.backend.deps.services.reconciler.runOnce()).toBe(1);
      expect((await getTask(t, user.session, task.id)).status).toBe("success");
    } finally {
      t.emu.control.faults.webhooks = {};
    }
  });

  describe("a submit the platform refuses (error bodies as the live platform words them)", () => {
    let user: TaskUser;
    beforeAll(async () => {
      user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
      t.emu.control.setQuota(user.namespace, 100);
    });

    /** Answers every submit with `status` and `body` while `fn` runs, as the platform would. */
    async function refusingSubmits(status: number, body: unknown, fn: () => Promise<void>) {
      const refusal = vi
        .spyOn(t.backend.deps.platform, "submitMusicTask")
        .mockImplementation(() =>
          Promise.reject(
            errorFromResponse({ status, body, request: "POST /v1/async/music/generations" }),
          ),
        );
      try {
        await fn();
      } finally {
        refusal.mockRestore();
      }
    }

    it("rejects a task refused with 400 and keeps the platform's own text from error_message", async () => {
      await refusingSubmits(400, { error_message: "必传参数: prompt" }, async () => {
        const task = await createTask(t, user.session);
        expect(task.status).toBe("rejected");
        expect(task.error).toContain("必传参数: prompt");
      });
    });

    it("keeps a task refused with 429 in the queue and submits it in a later round", async () => {
      let task: Awaited<ReturnType<typeof createTask>> | undefined;
      await refusingSubmits(429, { message: "Too Many Requests" }, async () => {
        task = await createTask(t, user.session);
        expect(task.status).toBe("queued");
      });
      await t.backend.deps.services.taskQueue.runOnce();
      expect((await getTask(t, user.session, task?.id ?? "")).status).toBe("waiting");
    });

    it("keeps a task refused with a quota message in the queue, whatever the 4xx", async () => {
      await refusingSubmits(
        400,
        { error: "bad_request", message: "concurrency quota exceeded" },
        async () => {
          const task = await createTask(t, user.session);
          expect(task).toMatchObject({ status: "queued", error: null });
        },
      );
      await t.backend.deps.services.taskQueue.runOnce();
    });

    it("keeps a task whose submit is refused 401 with a fresh proxy token too in the queue, and caches neither token", async () => {
      await refusingSubmits(401, { message: "invalid token" }, async () => {
        const task = await createTask(t, user.session);
        expect(task.status).toBe("queued");
        // The token of the first attempt and the fresh one of the second: both dropped.
        const cached = await t.database.db
          .select()
          .from(proxyTokens)
          .where(eq(proxyTokens.userId, user.userId));
        expect(cached).toEqual([]);
      });
      await t.backend.deps.services.taskQueue.runOnce();
    });
  });

  describe("a submit that fails ambiguously", () => {
    let user: TaskUser;
    beforeAll(async () => {
      user = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    });
    const account = () => ({ userId: user.userId, namespace: user.namespace });

    async function queuedTask() {
      t.emu.control.setQuota(user.namespace, 0);
      const task = await createTask(t, user.session);
      expect(task.status).toBe("queued");
      t.emu.control.setQuota(user.namespace, 10);
      return task;
    }

    it("marks a task unknown after a 5xx answer and never submits it again", async () => {
      const task = await queuedTask();
      const submits = submitCount(t);
      const created = t.emu.control.listTasks().length;
      t.emu.control.faults.failNextTaskRequests(1, "5xx", 503);
      await t.backend.deps.services.taskQueue.drain(account(), 1);

      expect(await getTask(t, user.session, task.id)).toMatchObject({
        status: "unknown",
        error: UNKNOWN_SUBMIT_MESSAGE,
      });
      expect(submitCount(t)).toBe(submits + 1);
      await t.backend.deps.services.taskQueue.runOnce();
      await t.backend.deps.services.reconciler.runOnce();
      await t.emu.control.clock.advance(60_000);
      await t.backend.deps.services.taskQueue.runOnce();
      expect(submitCount(t)).toBe(submits + 1);
      expect(t.emu.control.listTasks().length).toBe(created);
      expect(
        (await t.request(`/api/tasks/${task.id}/cancel`, { method: "POST", session: user.session }))
          .status,
      ).toBe(409);
    });

    it("keeps a submit that hangs as submitting, and the stale sweep marks it unknown without a resubmit", async () => {
      const task = await queuedTask();
      const submits = t.platformCalls.length;
      t.emu.control.faults.failNextTaskRequests(1, "hang");
      const draining = t.backend.deps.services.taskQueue.drain(account(), 1);
      while (t.emu.control.faults.get().taskRequests.remaining > 0)
        await new Promise((r) => setTimeout(r, 5));
      expect((await getTask(t, user.session, task.id)).status).toBe("submitting");

      await t.emu.control.clock.advance(3 * 60_000);
      expect(await t.backend.deps.services.taskQueue.sweepStaleSubmits()).toBe(1);
      expect((await getTask(t, user.session, task.id)).status).toBe("unknown");
      t.emu.control.faults.releaseHangs();
      await draining;
      expect(await getTask(t, user.session, task.id)).toMatchObject({
        status: "unknown",
        error: UNKNOWN_SUBMIT_MESSAGE,
      });
      expect(t.platformCalls.length).toBe(submits + 1);
    });
  });
});
