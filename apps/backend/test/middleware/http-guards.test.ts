import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  CHROME_ORIGIN,
  FIREFOX_ORIGIN,
  startTestBackend,
  type TestBackend,
} from "../support/harness.ts";

describeEachDriver("CORS, rate limits and the API document", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(() => t.close());

  const preflight = (path: string, origin: string) =>
    t.request(path, {
      method: "OPTIONS",
      origin,
      headers: {
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization,content-type",
      },
    });

  it("allows the Chrome extension's origin on /api", async () => {
    const response = await t.request("/api/me", { session, origin: CHROME_ORIGIN });
    expect(response.headers.get("access-control-allow-origin")).toBe(CHROME_ORIGIN);
  });

  it("allows the Firefox extension's origin on /auth/token", async () => {
    const response = await t.request("/auth/token", {
      method: "POST",
      origin: FIREFOX_ORIGIN,
      body: "{}",
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("access-control-allow-origin")).toBe(FIREFOX_ORIGIN);
  });

  it("allows the extension's origin on media links (its <audio> loads them in CORS mode)", async () => {
    const response = await t.request("/media/not-a-link", { origin: FIREFOX_ORIGIN });
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBe(FIREFOX_ORIGIN);
  });

  it("sends no CORS headers to another origin", async () => {
    const response = await t.request("/api/me", { session, origin: "https://evil.test" });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-expose-headers")).toBeNull();
  });

  it("answers an allowed preflight with the methods and headers", async () => {
    const response = await preflight("/api/selection", CHROME_ORIGIN);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(CHROME_ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toContain("PUT");
    expect(response.headers.get("access-control-allow-headers")).toContain("Authorization");
  });

  it("refuses a preflight from another origin", async () => {
    const response = await preflight("/api/selection", "https://evil.test");
    expect(response.status).toBe(403);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("limits sign-in starts per client address with 429 and Retry-After", async () => {
    const ip = "203.0.113.7";
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await t.request("/auth/start", { ip })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    const limited = await t.request("/auth/start", { ip });
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
  });

  it("does not limit another client address", async () => {
    for (let i = 0; i < 12; i += 1) await t.request("/auth/start", { ip: "203.0.113.8" });
    expect((await t.request("/auth/start", { ip: "203.0.113.9" })).status).toBe(400);
  });

  it("lets a limited client through again as the bucket refills", async () => {
    const ip = "203.0.113.10";
    for (let i = 0; i < 11; i += 1)
      await t.request("/auth/token", { ip, method: "POST", body: "{}" });
    expect((await t.request("/auth/token", { ip, method: "POST", body: "{}" })).status).toBe(429);
    await t.emu.control.clock.advance(3_000);
    expect((await t.request("/auth/token", { ip, method: "POST", body: "{}" })).status).toBe(400);
  });

  it("describes every sign-in and credential route in /openapi.json", async () => {
    const doc = (await (await t.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes?: Record<string, unknown> };
    };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        "get /auth/start",
        "get /oauth/callback",
        "post /auth/token",
        "post /auth/logout",
        "get /api/me",
        "get /api/sessions",
        "delete /api/sessions/{id}",
        "get /api/namespaces/{ns}/tokens",
        "get /api/selection",
        "put /api/selection",
        "put /api/namespaces/{ns}/webhook-secret",
        "get /api/namespaces/{ns}/webhook-secret",
        "delete /api/namespaces/{ns}/webhook-secret",
      ]),
    );
    expect(doc.components.securitySchemes).toHaveProperty("session");
  });
});
