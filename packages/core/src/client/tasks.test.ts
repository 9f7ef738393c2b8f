import { describe, expect, it } from "vitest";
import { API_URL, BASE_URL, rejectionOf, setupClient } from "./client.fixtures.ts";
import { json } from "../transport/fake-fetch.fixtures.ts";
import { MUSIC_DEFAULTS, validateMusicParams } from "../music/index.ts";

const params = {
  model: "ACE-Step-v1-3.5B",
  duration: 60,
  prompt: "lofi",
  lyrics: null,
  use_erg_tag: true,
};
const submitted = { task_id: "t1", urls: { get: `${API_URL}/api/v1/task/t1` } };

describe("submitMusicTask (spec 4.6)", () => {
  it("posts the form, encoded by the reference rules, to the music endpoint with the API token", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, submitted));
    expect(await client.submitMusicTask("proxy-jwt", params)).toEqual(submitted);
    const request = fake.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe(`${API_URL}/v1/async/music/generations`);
    expect(request?.headers.get("authorization")).toBe("Bearer proxy-jwt");
    expect(request?.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = Object.fromEntries((await request?.formData()) ?? new FormData());
    expect(form).toMatchObject({
      model: "ACE-Step-v1-3.5B",
      duration: "60",
      prompt: "lofi",
      lyrics: "",
      use_erg_tag: "true",
    });
  });

  it("sends the webhook URL exactly as given in X-WebHook", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, submitted));
    const webhookUrl = "https://overture.test/webhooks/platform?k=Ab-_9&b=2&a=%2B";
    await client.submitMusicTask("tok", params, { webhookUrl });
    expect(fake.requests[0]?.headers.get("x-webhook")).toBe(webhookUrl);
  });

  it("sends no X-WebHook without a webhook URL", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, submitted));
    await client.submitMusicTask("tok", params);
    expect(fake.requests[0]?.headers.has("x-webhook")).toBe(false);
  });

  it.each(["/webhooks/platform", "ftp://x.test/a", "https://x.test/a\r\nX-Evil: 1"])(
    "rejects the webhook URL %j with a TypeError before sending",
    async (webhookUrl) => {
      const { fake, client } = setupClient();
      expect(
        await rejectionOf(client.submitMusicTask("tok", params, { webhookUrl })),
      ).toBeInstanceOf(TypeError);
      expect(fake.requests).toHaveLength(0);
    },
  );

  it("reports a full concurrency quota as QUOTA_EXHAUSTED", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(429, { error: "quota_exceeded", message: "2 tasks already running" }));
    expect(await rejectionOf(client.submitMusicTask("tok", params))).toMatchObject({
      code: "QUOTA_EXHAUSTED",
      status: 429,
    });
  });

  it("reports a 400 with the platform's message", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(400, { error: "invalid_parameter", message: "duration must be at most 240" }));
    const error = await rejectionOf(client.submitMusicTask("tok", params));
    expect(error).toMatchObject({ code: "PLATFORM_BAD_REQUEST" });
    expect((error as Error).message).toContain("duration must be at most 240");
  });
});

describe("task operations (spec 4.7)", () => {
  it("queries a task at {api_url}/api/v1/task/{id} with the API token", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { task_id: "t1", status: "in_progress" }));
    expect(await client.getTask("tok", "t1")).toEqual({ task_id: "t1", status: "in_progress" });
    expect(fake.requests[0]?.url).toBe(`${API_URL}/api/v1/task/t1`);
    expect(fake.requests[0]?.headers.get("authorization")).toBe("Bearer tok");
  });

  it("fills task_id from the request when the body leaves it out", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { status: "waiting" }));
    expect(await client.getTask("tok", "t1")).toEqual({ task_id: "t1", status: "waiting" });
  });

  it("gets the status at {api_url}/v1/task/{id}/status", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { status: "success" }));
    expect((await client.getTaskStatus("tok", "t1")).status).toBe("success");
    expect(fake.requests[0]?.url).toBe(`${API_URL}/v1/task/t1/status`);
  });

  it("gets the record at {api_url}/v1/task/{id} and keeps its parameters", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { task_id: "t1", status: "success", params: { prompt: "lofi" } }));
    expect(await client.getTaskRecord("tok", "t1")).toMatchObject({ params: { prompt: "lofi" } });
    expect(fake.requests[0]?.url).toBe(`${API_URL}/v1/task/t1`);
  });

  it("cancels with POST {api_url}/api/v1/task/{id}/cancel", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { task_id: "t1", status: "cancelled" }));
    expect(await client.cancelTask("tok", "t1")).toEqual({ task_id: "t1", status: "cancelled" });
    expect(fake.requests[0]?.method).toBe("POST");
    expect(fake.requests[0]?.url).toBe(`${API_URL}/api/v1/task/t1/cancel`);
  });

  it("reads an empty cancel response as an empty object", async () => {
    const { fake, client } = setupClient();
    fake.reply(new Response(null, { status: 204 }));
    expect(await client.cancelTask("tok", "t1")).toEqual({});
  });

  it("gets the available quota at {api_url}/v1/tasks/available-quota", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { available: 1, max_concurrency: 2 }));
    expect(await client.getAvailableQuota("tok")).toEqual({ available: 1, max_concurrency: 2 });
    expect(fake.requests[0]?.url).toBe(`${API_URL}/v1/tasks/available-quota`);
  });

  it("percent-encodes the task id in the path", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, { status: "waiting" }));
    await client.getTask("tok", "a/b?c");
    expect(fake.requests[0]?.url).toBe(`${API_URL}/api/v1/task/a%2Fb%3Fc`);
  });

  it("rejects an empty task id with a TypeError before sending", async () => {
    const { fake, client } = setupClient();
    expect(await rejectionOf(client.getTask("tok", ""))).toBeInstanceOf(TypeError);
    expect(fake.requests).toHaveLength(0);
  });

  it("names the task in the errors of task operations", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(404, { error: "not_found", message: "no such task" }));
    expect(await rejectionOf(client.getTask("tok", "t404", { retries: 0 }))).toMatchObject({
      code: "PLATFORM_NOT_FOUND",
      taskId: "t404",
    });
  });

  it("uses baseUrl for task endpoints when apiUrl is not given", async () => {
    const { fake, client } = setupClient({ apiUrl: undefined });
    fake.reply(json(200, { status: "waiting" }));
    await client.getTask("tok", "t1");
    expect(fake.requests[0]?.url).toBe(`${BASE_URL}/api/v1/task/t1`);
  });
});

describe("submitMusicTask and validateMusicParams agree (one source of the rules)", () => {
  async function sentForm(input: object) {
    const { fake, client } = setupClient();
    fake.reply(json(200, submitted));
    await client.submitMusicTask("tok", input);
    return (await fake.requests[0]?.formData()) ?? new FormData();
  }

  it("sends every field of the validated value, in the spec's order, defaults filled in", async () => {
    const result = validateMusicParams({ prompt: "lofi" });
    if (!result.ok) throw new Error("invalid");
    const form = await sentForm(result.value);
    expect([...form.keys()]).toEqual(Object.keys(MUSIC_DEFAULTS));
    expect(form.get("use_erg_diffusion")).toBe("true");
    expect(form.get("guidance_interval")).toBe("0.5");
    expect(form.get("reference_audio_strength")).toBe("0.3");
    expect([...(await sentForm({ prompt: "lofi" })).entries()]).toEqual([...form.entries()]);
  });

  it("sends LoRA none as an empty string, as the reference client sends None", async () => {
    expect((await sentForm({ prompt: "lofi" })).get("lora_name")).toBe("");
    expect((await sentForm({ prompt: "lofi", lora_name: "none" })).get("lora_name")).toBe("");
    const rap = await sentForm({ prompt: "lofi", lora_name: "ACE-Step-v1-chinese-rap-LoRA" });
    expect(rap.get("lora_name")).toBe("ACE-Step-v1-chinese-rap-LoRA");
  });

  it("sends seeds comma-joined, and no seeds field when there are none", async () => {
    expect((await sentForm({ prompt: "lofi", seeds: [42, 7] })).get("seeds")).toBe("42,7");
    expect((await sentForm({ prompt: "lofi", seeds: "1 2" })).get("seeds")).toBe("1,2");
    expect((await sentForm({ prompt: "lofi" })).has("seeds")).toBe(false);
  });

  it("sends prompt and lyrics with LF line breaks, on the wire too", async () => {
    const { fake, client } = setupClient();
    fake.reply(json(200, submitted));
    await client.submitMusicTask("tok", {
      prompt: "lofi\r\npiano",
      lyrics: "[verse]\r\nHello\rBye",
    });
    // FormData's multipart encoding turns every LF into CRLF; the bytes sent must not.
    const wire = (await fake.requests[0]?.clone().text()) ?? "";
    expect(wire).toContain("\r\n\r\nlofi\npiano\r\n--");
    expect(wire).toContain("\r\n\r\n[verse]\nHello\nBye\r\n--");
    const form = (await fake.requests[0]?.formData()) ?? new FormData();
    expect(form.get("lyrics")).toBe("[verse]\nHello\nBye");
  });

  it("refuses what validateMusicParams refuses, before sending, with the field errors", async () => {
    const { fake, client } = setupClient();
    const input = { prompt: "lofi\u0000", guidance_scale_text: 201 };
    const error = await rejectionOf(client.submitMusicTask("tok", input));
    expect(error).toMatchObject({ name: "MusicParamsError", code: "INVALID_MUSIC_PARAMS" });
    const result = validateMusicParams(input);
    expect((error as { errors: unknown }).errors).toEqual(result.ok ? [] : result.errors);
    expect(fake.requests).toHaveLength(0);
  });
});
