import { quotaSchema, taskSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import { bearer, DEMO_TOKEN, json, LAB_TOKEN, manualEmulator } from "../helpers/emulator.ts";
import { getTask, submitId } from "../helpers/tasks.ts";

const cancel = (emu: ReturnType<typeof manualEmulator>, id: string) =>
  emu.app.request(`/api/v1/task/${id}/cancel`, { method: "POST", headers: bearer(DEMO_TOKEN) });

describe("task lifecycle and operations (spec 3.1, 2.6, 4.7, 8)", () => {
  it("2.6: moves waiting → in_progress → success on the emulator clock, with ms timestamps", async () => {
    const emu = manualEmulator();
    const t0 = emu.control.clock.now();
    const id = await submitId(emu);
    expect(await getTask(emu, id)).toMatchObject({
      status: "waiting",
      created_at: t0,
      started_at: null,
    });
    await emu.control.clock.advance(999);
    expect((await getTask(emu, id)).status).toBe("waiting");
    await emu.control.clock.advance(1);
    expect(await getTask(emu, id)).toMatchObject({ status: "in_progress", started_at: t0 + 1_000 });
    await emu.control.clock.advance(4_000);
    const done = await getTask(emu, id);
    expect(taskSchema.safeParse(done).success).toBe(true);
    expect(done).toMatchObject({ status: "success", completed_at: t0 + 5_000 });
    expect(String(t0).length).toBe(13);
  });

  it("2.6: a successful music task has output.file_url and usage_info", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    await emu.control.clock.advance(5_000);
    const task = await getTask(emu, id);
    expect((task.output as { file_url: string }).file_url).toMatch(
      /^http:\/\/127\.0\.0\.1:4010\/files\/.+\.wav$/,
    );
    expect(task.usage_info).toMatchObject({ unit: "second", quantity: 8 });
  });

  it("2.6: usage_info is empty until the task succeeds", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    expect((await getTask(emu, id)).usage_info).toEqual({});
  });

  it("7: a failed task has status failure and output.error with a message", async () => {
    const emu = manualEmulator({ timing: { failureRate: 1 } });
    const id = await submitId(emu);
    await emu.control.clock.advance(5_000);
    const task = await getTask(emu, id);
    expect(task.status).toBe("failure");
    expect(task.output).toMatchObject({
      error: { code: "generation_failed", message: expect.any(String) as string },
    });
  });

  it("8: durations and failures are drawn from a seeded PRNG, so a seed repeats exactly", async () => {
    const plans = async (seed: number) => {
      const emu = manualEmulator({
        speed: "spec",
        timing: {
          seed,
          waitingMs: [5_000, 30_000],
          runningMs: [55_000, 570_000],
          failureRate: 0.5,
        },
      });
      await submitId(emu);
      await submitId(emu);
      return emu.control.listTasks().map((t) => t.plan);
    };
    expect(await plans(7)).toEqual(await plans(7));
    expect(await plans(7)).not.toEqual(await plans(8));
  });

  it("8: the spec speed keeps tasks between 1 and 10 minutes", async () => {
    const emu = manualEmulator({
      speed: "spec",
      timing: { waitingMs: [5_000, 30_000], runningMs: [55_000, 570_000] },
    });
    await submitId(emu);
    const { plan } = emu.control.listTasks()[0] ?? { plan: { waitingMs: 0, runningMs: 0 } };
    const total = plan.waitingMs + plan.runningMs;
    expect(total).toBeGreaterThanOrEqual(60_000);
    expect(total).toBeLessThanOrEqual(600_000);
  });

  it("3.1: cancel from waiting gives cancelled", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    const res = await cancel(emu, id);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ task_id: id, status: "cancelled" });
    expect((await getTask(emu, id)).status).toBe("cancelled");
  });

  it("3.1: cancel from in_progress gives cancelled, and the task never completes afterwards", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    await emu.control.clock.advance(1_000);
    expect((await cancel(emu, id)).status).toBe(200);
    await emu.control.clock.advance(10_000);
    expect((await getTask(emu, id)).status).toBe("cancelled");
  });

  it("3.1: cancel on a terminal task is refused with 409 task_not_cancellable", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    await emu.control.clock.advance(5_000);
    const res = await cancel(emu, id);
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ error: "task_not_cancellable" });
    expect((await getTask(emu, id)).status).toBe("success");
  });

  it("4.7: the status endpoint answers task_id and status", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    const res = await emu.app.request(`/v1/task/${id}/status`, { headers: bearer(DEMO_TOKEN) });
    expect(await json(res)).toEqual({ task_id: id, status: "waiting" });
  });

  it("4.7: the record endpoint includes the parameters, status and results", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu, { prompt: "rain", duration: "3", use_erg_tag: "false" });
    await emu.control.clock.advance(5_000);
    const res = await emu.app.request(`/v1/task/${id}`, { headers: bearer(DEMO_TOKEN) });
    const body = await json(res);
    expect(taskSchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      task_id: id,
      status: "success",
      model: "ACE-Step-v1-3.5B",
      task: "text2music",
      parameters: { prompt: "rain", duration: 3, use_erg_tag: false },
    });
    expect((body.output as { file_url?: string }).file_url).toBeTruthy();
  });

  it("4.7: the quota endpoint answers available and max_concurrency", async () => {
    const emu = manualEmulator();
    const quota = () =>
      emu.app.request("/v1/tasks/available-quota", { headers: bearer(DEMO_TOKEN) });
    expect(await json(await quota())).toEqual({ available: 2, max_concurrency: 2 });
    await submitId(emu);
    const body = await json(await quota());
    expect(quotaSchema.safeParse(body).success).toBe(true);
    expect(body).toEqual({ available: 1, max_concurrency: 2 });
  });

  it("a task is visible only to tokens of its account (404 otherwise)", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    for (const path of [`/api/v1/task/${id}`, `/v1/task/${id}/status`, `/v1/task/${id}`])
      expect((await emu.app.request(path, { headers: bearer(LAB_TOKEN) })).status).toBe(404);
    const res = await emu.app.request(`/api/v1/task/${id}/cancel`, {
      method: "POST",
      headers: bearer(LAB_TOKEN),
    });
    expect(res.status).toBe(404);
  });

  it("two tokens of the same account see each other's tasks", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    expect((await getTask(emu, id, "emu-demo-sketchbook-trial-0002")).status).toBe("waiting");
  });

  it("5 rule 5: task operations refuse a missing token with 401", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    expect((await emu.app.request(`/api/v1/task/${id}`)).status).toBe(401);
    expect((await emu.app.request("/v1/tasks/available-quota")).status).toBe(401);
  });
});
