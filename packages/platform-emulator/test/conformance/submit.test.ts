import { platformErrorBodySchema, submitResponseSchema } from "@overture/core/schemas";
import { describe, expect, it } from "vitest";
import { bearer, DEMO_TOKEN, json, LAB_TOKEN, manualEmulator } from "../helpers/emulator.ts";
import { submit, submitId } from "../helpers/tasks.ts";

describe("music task submit (spec 4.6, 7, 8)", () => {
  it.each(["readable", "live"] as const)(
    "4.6 (%s profile): answers task_id and urls.get, plus status, created_at and urls.cancel as the live sample does",
    async (profile) => {
      const emu = manualEmulator({ profile });
      const res = await submit(emu);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(submitResponseSchema.safeParse(body).success).toBe(true);
      expect(Object.keys(body)).toEqual(["task_id", "status", "created_at", "urls"]);
      const id = String(body.task_id);
      expect(body).toEqual({
        task_id: id,
        status: "waiting",
        created_at: emu.control.clock.now(),
        urls: {
          get: `http://127.0.0.1:4010/api/v1/task/${id}`,
          cancel: `http://127.0.0.1:4010/api/v1/task/${id}/cancel`,
        },
      });
    },
  );

  it("4.6: urls use api_url when it differs from base_url", async () => {
    const emu = manualEmulator({ apiUrl: "http://127.0.0.1:4011" });
    const body = await json<{ urls: { get: string } }>(await submit(emu));
    expect(body.urls.get.startsWith("http://127.0.0.1:4011/api/v1/task/")).toBe(true);
  });

  it("5 rule 5, 7: a wrong API token is 401", async () => {
    const emu = manualEmulator();
    expect((await submit(emu, undefined, { token: "emu-nope-0000" })).status).toBe(401);
  });

  it("5 rule 4: an OAuth-looking random JWT is 401", async () => {
    const emu = manualEmulator();
    expect((await submit(emu, undefined, { token: "a.b.c" })).status).toBe(401);
  });

  const badValue: [string, string, string][] = [
    ["duration", "ten", "duration must be a number"],
    ["infer_steps", "2.5", "infer_steps must be an integer"],
    ["guidance_scale", "1e", "guidance_scale must be a number"],
    ["use_erg_tag", "yes", "use_erg_tag must be true or false"],
    ["use_erg_lyric", "True", "use_erg_lyric must be true or false"],
  ];
  it.each(badValue)("7: %s=%s is 400 naming the field", async (field, value, message) => {
    const emu = manualEmulator();
    const res = await submit(emu, { prompt: "x", [field]: value });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(platformErrorBodySchema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ error: "invalid_parameter", field });
    expect(String(body.message)).toContain(message);
  });

  it("7: a missing prompt is 400 naming prompt", async () => {
    const emu = manualEmulator();
    const res = await submit(emu, { duration: "10" });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ field: "prompt" });
  });

  it("7: a duration out of (0, 600] is 400", async () => {
    const emu = manualEmulator();
    expect((await submit(emu, { prompt: "x", duration: "0" })).status).toBe(400);
    expect((await submit(emu, { prompt: "x", duration: "601" })).status).toBe(400);
    expect((await submit(emu, { prompt: "x", duration: "600" })).status).toBe(200);
  });

  it("4.6: accepts every field in the reference client's encoding (numbers, true/false, null as empty)", async () => {
    const emu = manualEmulator({
      seed: {
        users: [{ id: 1, login: "u", name: "U" }],
        accessTokens: [
          { id: 1, namespace: "u", name: "t", usage_scenario: "paid", token: "tok-12345678" },
        ],
        defaultQuota: 5,
      },
    });
    const res = await submit(
      emu,
      {
        model: "ACE-Step-v1-3.5B",
        task: "text2music",
        duration: "12.5",
        prompt: "synthwave, 120 bpm",
        lyrics: "[verse]\nla la",
        infer_steps: "60",
        lora_name: "none",
        guidance_scale: "15",
        guidance_scale_text: "0",
        guidance_scale_lyric: "0",
        scheduler_type: "euler",
        cfg_type: "apg",
        omega_scale: "10",
        guidance_interval: "0.5",
        guidance_interval_decay: "0",
        min_guidance_scale: "3",
        use_erg_tag: "true",
        use_erg_lyric: "false",
        use_erg_diffusion: "true",
        guidance_scale_text_extra: "",
      },
      { token: "tok-12345678" },
    );
    expect(res.status).toBe(200);
    const id = String((await json(res)).task_id);
    const record = await json<{ parameters: Record<string, unknown> }>(
      await emu.app.request(`/v1/task/${id}`, { headers: bearer("tok-12345678") }),
    );
    expect(record.parameters).toMatchObject({
      duration: 12.5,
      infer_steps: 60,
      use_erg_tag: true,
      use_erg_lyric: false,
    });
  });

  it("4.6: an empty value of a number field (null in the reference encoding) is accepted as null", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu, { prompt: "x", omega_scale: "" });
    const record = await json<{ parameters: Record<string, unknown> }>(
      await emu.app.request(`/v1/task/${id}`, { headers: bearer(DEMO_TOKEN) }),
    );
    expect(record.parameters.omega_scale).toBeNull();
  });

  it("ignores unknown fields like a real server", async () => {
    const emu = manualEmulator();
    const res = await submit(emu, { prompt: "x", mood: "sunny", duration: "5" });
    expect(res.status).toBe(200);
  });

  it("4.6: accepts a multipart body only (JSON is 400)", async () => {
    const emu = manualEmulator();
    const res = await emu.app.request("/v1/async/music/generations", {
      method: "POST",
      headers: { ...bearer(DEMO_TOKEN), "Content-Type": "application/json" },
      body: JSON.stringify({ prompt: "x" }),
    });
    expect(res.status).toBe(400);
  });

  it("4.6: X-WebHook must be an absolute http(s) URL", async () => {
    const emu = manualEmulator();
    for (const bad of ["/relative/path", "ftp://127.0.0.1/x", "not a url"])
      expect((await submit(emu, undefined, { webhook: bad })).status).toBe(400);
    expect((await submit(emu, undefined, { webhook: "https://r.example/h?a=1" })).status).toBe(200);
  });

  it.each(["", " "])(
    "4.6: an X-WebHook of %j counts as absent (the header is optional): the task is created",
    async (value) => {
      const emu = manualEmulator();
      const res = await submit(emu, undefined, { webhook: value });
      expect(res.status).toBe(200);
      const { task_id } = await json<{ task_id: string }>(res);
      expect(emu.control.getTask(task_id)).toMatchObject({ webhook_url: null });
    },
  );

  it("8: a submission above the concurrency quota is refused with 429 quota_exceeded", async () => {
    const emu = manualEmulator();
    await submitId(emu);
    await submitId(emu);
    const res = await submit(emu);
    expect(res.status).toBe(429);
    expect(await json(res)).toMatchObject({ error: "quota_exceeded" });
  });

  it("8: the quota 429 carries no Retry-After by default", async () => {
    const emu = manualEmulator();
    await submitId(emu);
    await submitId(emu);
    const res = await submit(emu);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBeNull();
  });

  it("8: with quotaRetryAfterSeconds the quota 429 carries Retry-After: <seconds>", async () => {
    const emu = manualEmulator({ quotaRetryAfterSeconds: 30 });
    await submitId(emu);
    await submitId(emu);
    const res = await submit(emu);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("30");
    expect(await json(res)).toMatchObject({ error: "quota_exceeded" });
  });

  it("8: quotaRetryAfterSeconds must be a whole number of seconds", () => {
    for (const bad of [1.5, -1, Number.NaN])
      expect(() => manualEmulator({ quotaRetryAfterSeconds: bad })).toThrow(
        /quotaRetryAfterSeconds must be a non-negative integer/,
      );
  });

  it("8: the quota is per account (another account still has room)", async () => {
    const emu = manualEmulator();
    await submitId(emu);
    await submitId(emu);
    expect((await submit(emu, undefined, { token: LAB_TOKEN })).status).toBe(200);
  });

  it("8: the quota counts waiting plus in_progress; a finished task frees its slot", async () => {
    const emu = manualEmulator();
    await submitId(emu);
    await submitId(emu);
    await emu.control.clock.advance(1_000); // both in_progress: still counted
    expect((await submit(emu)).status).toBe(429);
    await emu.control.clock.advance(4_000); // both success
    expect((await submit(emu)).status).toBe(200);
  });

  it("8: a cancelled task frees its slot", async () => {
    const emu = manualEmulator();
    const id = await submitId(emu);
    await submitId(emu);
    await emu.app.request(`/api/v1/task/${id}/cancel`, {
      method: "POST",
      headers: bearer(DEMO_TOKEN),
    });
    expect((await submit(emu)).status).toBe(200);
  });
});
