import { callbackEventSchema, taskSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import type { PlatformEmulatorOptions } from "../../src/index.ts";
import { eventOf } from "../helpers/capture.ts";
import { bearer, DEMO_TOKEN, json, manualEmulator } from "../helpers/emulator.ts";
import { getTask, submit, submitId } from "../helpers/tasks.ts";
import { webhookEmulator } from "../helpers/webhooks.ts";

const live = (options: PlatformEmulatorOptions = {}) =>
  manualEmulator({ profile: "live", ...options });
const DAY = 24 * 3_600_000;

/** Submits `n` tasks (quota raised) and runs them to their end. */
async function finishedTasks(emu: ReturnType<typeof live>, n: number) {
  emu.control.setQuota("demo", n);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await submitId(emu));
  await emu.control.clock.advance(5_000);
  return Promise.all(ids.map((id) => getTask(emu, id)));
}

const postJson = (emu: ReturnType<typeof live>, body: unknown) =>
  emu.app.request("/v1/async/music/generations", {
    method: "POST",
    headers: { ...bearer(DEMO_TOKEN), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the live profile answers as the live platform is known to (docs/platform-facts.md)", () => {
  it("task ids are 32 uppercase letters and digits", async () => {
    expect(await submitId(live())).toMatch(/^[A-Z0-9]{32}$/);
    expect(await submitId(manualEmulator())).toMatch(/^task_/);
  });

  it("event ids are 32 lowercase hex digits", async () => {
    const { emu, deliveries } = webhookEmulator({ profile: "live" });
    await submitId(emu, undefined, { webhook: "https://r.example/hook" });
    await emu.control.settle();
    const event = eventOf(deliveries[0] ?? { url: "", headers: new Headers(), body: "{}" });
    expect(event.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(callbackEventSchema.safeParse(event).success).toBe(true);
  });

  it("task records carry created_at, started_at, completed_at in ms and price with currency CNY", async () => {
    const [task] = await finishedTasks(live(), 1);
    for (const field of ["created_at", "started_at", "completed_at"])
      expect(String(task?.[field])).toMatch(/^\d{13}$/);
    expect(task).toMatchObject({ price: 0.08, currency: "CNY" });
    expect(taskSchema.safeParse(task).success).toBe(true);
  });

  it("the readable profile has no price", async () => {
    const [task] = await finishedTasks(manualEmulator(), 1);
    expect(task).not.toHaveProperty("price");
  });

  it("usage_info is null until the end, then an object (unit seconds) for one task and null for the next", async () => {
    const emu = live();
    const id = await submitId(emu);
    expect((await getTask(emu, id)).usage_info).toBeNull();
    const [first, second] = await finishedTasks(live(), 2);
    expect(first?.usage_info).toMatchObject({ unit: "seconds", quantity: 8 });
    expect(second?.usage_info).toBeNull();
  });

  it("a success puts its link in output.file_url for one task and output.url for the next", async () => {
    const [first, second] = await finishedTasks(live(), 2);
    expect(Object.keys(first?.output ?? {})).toContain("file_url");
    expect(Object.keys(second?.output ?? {})).toContain("url");
    expect(second?.output).not.toHaveProperty("file_url");
  });

  it("a failure has output.error as {code, message} for one task and a plain string for the next, and a top-level message", async () => {
    const [first, second] = await finishedTasks(live({ timing: { failureRate: 1 } }), 2);
    const text = "Service Temporarily Unavailable";
    expect(first).toMatchObject({
      status: "failure",
      output: { error: { code: 500, message: text } },
    });
    expect(second).toMatchObject({ status: "failure", output: { error: text }, message: text });
    expect(first?.message).toBe(text);
  });

  it("shape pins a single variant (here: output.url on every task)", async () => {
    const tasks = await finishedTasks(live({ shape: { outputUrlField: "url" } }), 2);
    expect(tasks.map((t) => Object.keys(t.output ?? {}))).toEqual([
      ["url", "duration"],
      ["url", "duration"],
    ]);
  });

  it("result links are signed object-storage URLs valid 7 days (X-Amz-Expires=604800), then 403", async () => {
    const emu = live();
    const [task] = await finishedTasks(emu, 1);
    const link = new URL((task?.output as { file_url: string }).file_url);
    expect(link.searchParams.get("X-Amz-Expires")).toBe("604800");
    const path = link.pathname + link.search;
    await emu.control.clock.advance(7 * DAY - 1);
    expect((await emu.app.request(path)).status).toBe(200);
    await emu.control.clock.advance(1);
    const expired = await emu.app.request(path);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain("Request has expired");
  });

  it("a result link without its signature, or with a changed expiry, is refused with 403", async () => {
    const emu = live();
    const [task] = await finishedTasks(emu, 1);
    const link = new URL((task?.output as { file_url: string }).file_url);
    expect((await emu.app.request(link.pathname)).status).toBe(403);
    link.searchParams.set("X-Amz-Expires", "999999");
    expect((await emu.app.request(link.pathname + link.search)).status).toBe(403);
  });

  it("accepts a JSON submit body, typed by the same rules as the form", async () => {
    const emu = live();
    const res = await postJson(emu, {
      prompt: "x",
      duration: 12,
      use_erg_tag: true,
      lora_name: null,
    });
    expect(res.status).toBe(200);
    const id = String((await json(res)).task_id);
    const record = await json(
      await emu.app.request(`/v1/task/${id}`, { headers: bearer(DEMO_TOKEN) }),
    );
    expect(record.parameters).toEqual({
      prompt: "x",
      duration: 12,
      use_erg_tag: true,
      lora_name: "",
    });
  });

  it("the readable profile still refuses JSON; shape.jsonSubmit turns it on", async () => {
    expect((await postJson(manualEmulator(), { prompt: "x" })).status).toBe(400);
    const emu = manualEmulator({ shape: { jsonSubmit: true } });
    expect((await postJson(emu, { prompt: "x" })).status).toBe(200);
  });

  it("a missing field is 400 with error_message 必传参数: <name>", async () => {
    const res = await postJson(live(), { duration: 30 });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ error_message: "必传参数: prompt" });
  });

  it("a wrongly typed field is 400 with the reason in error_message", async () => {
    const res = await postJson(live(), { prompt: "x", duration: "ten" });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error_message: expect.stringMatching(/^duration must be/) as string,
    });
  });

  it("quota exhaustion is 429 with error and a message that says quota", async () => {
    const emu = live();
    await submitId(emu);
    await submitId(emu);
    const res = await submit(emu);
    expect(res.status).toBe(429);
    expect(await json(res)).toEqual({
      error: "quota_exceeded",
      message: expect.stringContaining("quota") as string,
    });
  });

  it("GET /v1/tasks/available-quota answers {available, max_concurrency}", async () => {
    const emu = live();
    await submitId(emu);
    const res = await emu.app.request("/v1/tasks/available-quota", { headers: bearer(DEMO_TOKEN) });
    expect(await json(res)).toEqual({ available: 1, max_concurrency: 2 });
  });

  it("an unknown profile name is refused with a clear error", () => {
    expect(() => manualEmulator({ profile: "prod" as "live" })).toThrow(/unknown profile "prod"/);
  });
});
