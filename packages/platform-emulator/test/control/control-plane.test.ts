import { describe, expect, it } from "vitest";
import { eventOf } from "../helpers/capture.ts";
import { bearer, CLIENT, DEMO_TOKEN, json, manualEmulator } from "../helpers/emulator.ts";
import { signIn, tokenRequest, type Tokens } from "../helpers/oauth.ts";
import { getTask, submit, submitId } from "../helpers/tasks.ts";
import { webhookEmulator } from "../helpers/webhooks.ts";

type Emu = ReturnType<typeof manualEmulator>;
const call = (
  emu: Emu,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  emu.app.request(`/__emulator${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("control plane over HTTP (/__emulator/)", () => {
  it("reset drops tasks and grants and restores the seed", async () => {
    const emu = manualEmulator();
    await submitId(emu);
    const tokens = await signIn(emu);
    expect((await call(emu, "POST", "/reset")).status).toBe(200);
    expect(emu.control.listTasks()).toHaveLength(0);
    const info = await emu.app.request("/api/open/v1/userinfo", {
      headers: bearer(tokens.access_token),
    });
    expect(info.status).toBe(401);
  });

  it("seed replaces the console resources; a bad seed is 400 listing the problem", async () => {
    const emu = manualEmulator();
    const seed = {
      users: [{ id: 7, login: "zed", name: "Zed" }],
      accessTokens: [
        { id: 9, namespace: "zed", name: "z", usage_scenario: "trial", token: "zed-token-0001" },
      ],
    };
    expect((await call(emu, "POST", "/seed", seed)).status).toBe(200);
    expect(emu.control.snapshot().users.map((u) => u.login)).toEqual(["zed"]);
    expect((await submit(emu, undefined, { token: "zed-token-0001" })).status).toBe(200);
    const bad = await call(emu, "POST", "/seed", {
      users: [{ id: 1, login: "a", name: "A" }],
      organizations: [{ namespace: "o", members: ["ghost"] }],
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("unknown member");
  });

  it("2.8: resetting an account's webhook secret returns the new one; setting one works too", async () => {
    const emu = manualEmulator();
    const res = await call(emu, "POST", "/accounts/demo/webhook-secret/reset");
    const { secret } = await json<{ secret: string }>(res);
    expect(secret.length).toBeGreaterThan(20);
    expect(
      emu.control.snapshot().accounts.find((a) => a.namespace === "demo")?.webhook_secret,
    ).toBe(secret);
    await call(emu, "PUT", "/accounts/demo/webhook-secret", { secret: "s2" });
    expect(
      emu.control.snapshot().accounts.find((a) => a.namespace === "demo")?.webhook_secret,
    ).toBe("s2");
    expect((await call(emu, "POST", "/accounts/nobody/webhook-secret/reset")).status).toBe(404);
  });

  it("sets an account's quota", async () => {
    const emu = manualEmulator();
    await call(emu, "PUT", "/accounts/demo/quota", { quota: 0 });
    expect((await submit(emu)).status).toBe(429);
  });

  it("lists the OAuth tokens it holds in the snapshot; a refresh token rotated away is gone", async () => {
    const emu = manualEmulator();
    const first = await signIn(emu);
    const refreshed = await tokenRequest(emu, {
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      client_id: CLIENT.id,
      client_secret: CLIENT.secret,
    });
    const second = await json<Tokens>(refreshed);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const listed = emu.control.snapshot().oauth_tokens;
    expect(new Set(listed.map((t) => t.token))).toEqual(
      new Set([first.access_token, second.access_token, second.refresh_token]),
    );
    expect(listed.map((t) => t.kind).sort()).toEqual([
      "access_token",
      "access_token",
      "refresh_token",
    ]);
  });

  it("revokes an authorization", async () => {
    const emu = manualEmulator();
    const tokens = await signIn(emu);
    const res = await call(emu, "POST", "/authorizations/revoke", {
      client_id: CLIENT.id,
      user_id: 1001,
    });
    expect(await json(res)).toEqual({ revoked: 1 });
    const info = await emu.app.request("/api/open/v1/userinfo", {
      headers: bearer(tokens.access_token),
    });
    expect(info.status).toBe(401);
  });

  it("lists tasks and deliveries with their attempt logs, and retries a delivery", async () => {
    const { emu } = webhookEmulator({ timing: { waitingMs: 1e9 } }, [500, 500, 500, 500, 500, 500]);
    const id = await submitId(emu, undefined, { webhook: "https://r.example/h" });
    await call(emu, "POST", "/clock/advance", { ms: 3_600_000 });
    const tasks = await json<{ task_id: string }[]>(await call(emu, "GET", "/tasks"));
    expect(tasks.map((t) => t.task_id)).toEqual([id]);
    const deliveries = await json<{ id: string; attempts: unknown[]; state: string }[]>(
      await call(emu, "GET", `/deliveries?task_id=${id}`),
    );
    expect(deliveries[0]?.attempts).toHaveLength(6);
    expect(deliveries[0]?.state).toBe("failed");
    const retried = await json<{ state: string }>(
      await call(emu, "POST", `/deliveries/${deliveries[0]?.id ?? ""}/retry`),
    );
    expect(retried.state).toBe("succeeded");
  });

  it("advances and scales the clock", async () => {
    const emu = manualEmulator();
    const before = emu.control.clock.now();
    const res = await call(emu, "POST", "/clock/advance", { ms: 1234 });
    expect(await json(res)).toEqual({ now: before + 1234 });
    await call(emu, "POST", "/clock/scale", { scale: 60 });
    expect(await json(await call(emu, "GET", "/clock"))).toMatchObject({
      scale: 60,
      mode: "manual",
    });
  });

  it("refuses cross-site requests (a foreign Origin)", async () => {
    const emu = manualEmulator();
    const res = await call(emu, "POST", "/reset", undefined, { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
  });

  it("serves an HTML console listing apps, users, tokens, tasks and deliveries", async () => {
    const { emu } = webhookEmulator();
    await submitId(emu, { prompt: "console check" }, { webhook: "https://r.example/h" });
    await emu.control.settle();
    const res = await emu.app.request("/__emulator/console");
    const html = await res.text();
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    for (const text of [
      "overture-local",
      "Ada Lovelace",
      "emu-lab-shared-paid-0003",
      "console check",
      "succeeded",
    ])
      expect(html).toContain(text);
  });
});

describe("fault injection", () => {
  it("fails the next N task requests with a 5xx, then answers normally", async () => {
    const emu = manualEmulator();
    await call(emu, "POST", "/faults", { taskRequests: { count: 2, mode: "5xx", status: 502 } });
    const quota = () =>
      emu.app.request("/v1/tasks/available-quota", { headers: bearer(DEMO_TOKEN) });
    expect((await quota()).status).toBe(502);
    expect((await submit(emu)).status).toBe(502);
    expect((await quota()).status).toBe(200);
    expect(emu.control.listTasks()).toHaveLength(0);
  });

  it("hangs the next task request until released (then 504)", async () => {
    const emu = manualEmulator();
    emu.control.faults.failNextTaskRequests(1, "hang");
    let settled = false;
    const pending = Promise.resolve(submit(emu)).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    emu.control.faults.releaseHangs();
    expect((await pending).status).toBe(504);
  });

  it("carries out the next submit but withholds its answer until released (then 504)", async () => {
    const emu = manualEmulator();
    const set = await call(emu, "POST", "/faults", { lostSubmitAnswers: 1 });
    expect((await json<{ lostSubmitAnswers: number }>(set)).lostSubmitAnswers).toBe(1);
    let settled = false;
    const pending = Promise.resolve(submit(emu)).then((r) => {
      settled = true;
      return r;
    });
    await until(() => emu.control.listTasks().length === 1); // it landed: the task exists
    await pause(20);
    expect(settled).toBe(false);
    emu.control.faults.releaseHangs();
    const answer = await pending;
    expect(answer.status).toBe(504);
    expect(await json<{ error: string }>(answer)).toMatchObject({ error: "injected_lost_answer" });
    // Only the next one: the second submit is answered.
    expect((await submit(emu)).status).toBe(200);
  });

  it("drops webhook events: the record says dropped and nothing is sent", async () => {
    const { emu, deliveries } = webhookEmulator({ timing: { waitingMs: 1e9 } });
    emu.control.faults.webhooks = { drop: 1 };
    await submitId(emu, undefined, { webhook: "https://r.example/h" });
    await emu.control.clock.advance(600_000);
    expect(deliveries).toHaveLength(0);
    expect(emu.control.listDeliveries()[0]?.state).toBe("dropped");
  });

  it("duplicates webhook events with the same event_id", async () => {
    const { emu, deliveries } = webhookEmulator({ timing: { waitingMs: 1e9 } });
    emu.control.faults.webhooks = { duplicate: true };
    await submitId(emu, undefined, { webhook: "https://r.example/h" });
    await emu.control.settle();
    expect(deliveries).toHaveLength(2);
    const [a, b] = deliveries;
    if (!a || !b) throw new Error("expected two deliveries");
    expect(eventOf(a).event_id).toBe(eventOf(b).event_id);
    expect(a.body).toBe(b.body);
  });

  it("delays webhook events on the emulator clock", async () => {
    const { emu, deliveries } = webhookEmulator({ timing: { waitingMs: 1e9 } });
    emu.control.faults.webhooks = { delayMs: 30_000 };
    await submitId(emu, undefined, { webhook: "https://r.example/h" });
    await emu.control.clock.advance(29_999);
    expect(deliveries).toHaveLength(0);
    await emu.control.clock.advance(1);
    expect(deliveries).toHaveLength(1);
  });

  it("reorders webhook events: held until the task ends, then sent newest first", async () => {
    const { emu, deliveries } = webhookEmulator();
    emu.control.faults.webhooks = { reorder: true };
    const id = await submitId(emu, undefined, { webhook: "https://r.example/h" });
    await emu.control.clock.advance(1_000);
    expect(deliveries).toHaveLength(0);
    await emu.control.clock.advance(4_000);
    expect(deliveries.map((d) => eventOf(d).status)).toEqual(["success", "in_progress", "waiting"]);
    expect((await getTask(emu, id)).status).toBe("success");
  });

  it("reorder sends held events one at a time: the next leaves only once the last is answered", async () => {
    const sent: string[] = [];
    const answers: (() => void)[] = [];
    const gated = (_url: RequestInfo | URL, init?: RequestInit) => {
      const body = typeof init?.body === "string" ? init.body : "";
      sent.push(eventOf({ url: "", headers: new Headers(), body }).status);
      return new Promise<Response>((resolve) => {
        answers.push(() => {
          resolve(new Response("ok"));
        });
      });
    };
    const emu = manualEmulator({ fetch: gated });
    emu.control.setWebhookSecret("demo", "whsec_test");
    emu.control.faults.webhooks = { reorder: true };
    await submitId(emu, undefined, { webhook: "https://r.example/h" });
    const advancing = emu.control.clock.advance(5_000);
    for (const expected of [["success"], ["success", "in_progress"]]) {
      await until(() => sent.length >= expected.length);
      await pause(50); // were sends in parallel, the others would leave meanwhile
      expect(sent).toEqual(expected);
      answers.shift()?.();
    }
    await until(() => sent.length === 3);
    answers.shift()?.();
    await advancing;
    expect(sent).toEqual(["success", "in_progress", "waiting"]);
  });

  it("clearing faults restores normal behaviour", async () => {
    const { emu, deliveries } = webhookEmulator({ timing: { waitingMs: 1e9 } });
    await call(emu, "POST", "/faults", { webhooks: { drop: true } });
    await call(emu, "DELETE", "/faults");
    await submitId(emu, undefined, { webhook: "https://r.example/h" });
    await emu.control.settle();
    expect(deliveries).toHaveLength(1);
  });
});

/** Waits `ms` of wall time (signing uses WebCrypto, which completes off the event loop). */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits, for at most 5 s, until `ready()` holds. */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !ready(); i++) await pause(5);
  expect(ready()).toBe(true);
}
