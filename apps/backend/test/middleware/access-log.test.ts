import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  method?: string;
  route?: string;
  status?: number;
  ms?: number;
}

const INFO = 30;
const DEBUG = 20;

/** One access-log line per request, at info: what an operator reads, and nothing secret. */
describeEachDriver("access log", (driver) => {
  let t: TestBackend;
  const parsed = () =>
    t.logs.map((line) => JSON.parse(line) as LogLine).filter((l) => l.msg === "request");

  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  afterAll(() => t.close());

  it("logs method, route pattern, status, duration and request id at info", async () => {
    const taskId = "0b5e8a34-1f0c-4d53-9d5e-0a0c3a1f2b7c";
    const response = await t.request(`/api/tasks/${taskId}`, {
      headers: { "X-Request-Id": "req-123" },
    });
    expect(response.status).toBe(401);
    const line = parsed().find((l) => l.requestId === "req-123");
    expect(line).toMatchObject({
      level: INFO,
      method: "GET",
      route: "/api/tasks/:id",
      status: 401,
    });
    expect(typeof line?.ms).toBe("number");
    // The pattern, not the path: ids in paths are not logged.
    expect(JSON.stringify(line)).not.toContain(taskId);
  });

  it("logs no query: codes, state and webhook keys stay out", async () => {
    const code = "code-value-that-must-not-be-logged";
    const state = "state-value-that-must-not-be-logged";
    const key = "webhook-key-that-must-not-be-logged";
    await t.request(`/oauth/callback?code=${code}&state=${state}`, {
      headers: { "X-Request-Id": "req-callback" },
    });
    await t.request(`/webhooks/platform?k=${key}`, {
      method: "POST",
      headers: { "X-Request-Id": "req-webhook", "Content-Type": "application/json" },
      body: "{}",
    });
    const lines = parsed().filter((l) =>
      ["req-callback", "req-webhook"].includes(l.requestId ?? ""),
    );
    expect(lines.map((l) => [l.route, l.level])).toEqual([
      ["/oauth/callback", INFO],
      ["/webhooks/platform", INFO],
    ]);
    const all = t.logs.join("\n");
    for (const value of [code, state, key]) expect(all).not.toContain(value);
  });

  it("logs probes and scrapes at debug only, and an unknown route by its catch-all pattern", async () => {
    await t.request("/readyz", { headers: { "X-Request-Id": "req-ready" } });
    await t.request("/no/such/route", { headers: { "X-Request-Id": "req-404" } });
    const byId = new Map(parsed().map((l) => [l.requestId, l]));
    expect(byId.get("req-ready")).toMatchObject({ level: DEBUG, route: "/readyz" });
    expect(byId.get("req-404")).toMatchObject({ level: INFO, route: "/*", status: 404 });
  });
});
