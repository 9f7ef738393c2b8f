import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  CHROME_ORIGIN,
  FIREFOX_ORIGIN,
  freshIp,
  startTestBackend,
  type TestBackend,
} from "../support/harness.ts";

const ID = "kagljjjecjnbgppkpgkmojciehbjidja";

/** Origins that are not the extension's, however close. */
const FOREIGN_ORIGINS = [
  "https://evil.test",
  "null",
  `chrome-extension://${ID.toUpperCase()}`,
  `chrome-extension://${ID}/`,
  `chrome-extension://${ID}.evil.test`,
  `chrome-extension://x${ID}`,
  `chrome-extension://${ID.slice(1)}`,
  `https://${ID}.chromiumapp.org`,
  "moz-extension://00000000-0000-0000-0000-000000000000",
  `${CHROME_ORIGIN}, https://evil.test`,
  "http://backend.test",
];

/**
 * What a browser is allowed to do with the backend: CORS only for the extension's own origins
 * (never a wildcard, never credentials), sign-in endpoints rate limited per client, and every
 * HTML page under a script-free CSP that cannot be framed.
 */
describeEachDriver("the browser boundary", (driver) => {
  let t: TestBackend;
  let session: string;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    session = (await t.signIn()).sessionToken;
  });
  afterAll(() => t.close());

  describe("CORS", () => {
    it.each(FOREIGN_ORIGINS)(
      "gives %j no CORS header and refuses its preflight",
      async (origin) => {
        const response = await t.request("/api/me", { session, origin });
        expect(response.status).toBe(200);
        expect(response.headers.get("access-control-allow-origin")).toBeNull();
        const preflight = await t.request("/api/tasks", {
          method: "OPTIONS",
          origin,
          headers: { "Access-Control-Request-Method": "POST" },
        });
        expect(preflight.status).toBe(403);
        expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      },
    );

    it.each([CHROME_ORIGIN, FIREFOX_ORIGIN])(
      "answers %s with its own origin, never a wildcard or credentials",
      async (origin) => {
        const response = await t.request("/api/me", { session, origin });
        expect(response.headers.get("access-control-allow-origin")).toBe(origin);
        expect(response.headers.get("access-control-allow-credentials")).toBeNull();
        expect(response.headers.get("vary")).toContain("Origin");
      },
    );

    it("lets the extension's preflight through for every method the routes it calls use", async () => {
      const document = (await (await t.request("/openapi.json")).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const corsPath = (path: string) =>
        path.startsWith("/api/") ||
        path.startsWith("/media/") ||
        /^\/auth\/(token|logout)$/.test(path);
      const methods = new Set(
        Object.entries(document.paths)
          .filter(([path]) => corsPath(path))
          .flatMap(([, operations]) => Object.keys(operations).map((m) => m.toUpperCase())),
      );
      expect([...methods].sort()).toEqual(["DELETE", "GET", "PATCH", "POST", "PUT"]);
      for (const method of methods) {
        const preflight = await t.request("/api/tasks/x", {
          method: "OPTIONS",
          origin: CHROME_ORIGIN,
          headers: { "Access-Control-Request-Method": method },
        });
        expect(preflight.status, method).toBe(204);
        const allowed = (preflight.headers.get("access-control-allow-methods") ?? "").split(/,\s*/);
        expect(allowed, method).toContain(method);
      }
    });

    it.each([
      "/oauth/callback?state=x",
      "/auth/start",
      "/webhooks/platform?k=x",
      "/docs",
      "/healthz",
    ])("adds no CORS header to %s, even for the extension", async (path) => {
      const response = await t.request(path, { origin: CHROME_ORIGIN });
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  describe("rate limits", () => {
    it.each([
      ["/auth/start", "GET"],
      ["/oauth/callback?state=x", "GET"],
      ["/auth/token", "POST"],
    ])("limits %s per client address", async (path, method) => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1)
        statuses.push(
          (await t.request(path, { ip, method, ...(method === "POST" ? { body: "{}" } : {}) }))
            .status,
        );
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    });

    it("ignores X-Forwarded-For unless the backend is told it sits behind a proxy", async () => {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) {
        const response = await t.request("/auth/start", {
          ip,
          headers: { "X-Forwarded-For": `203.0.113.${i}` },
        });
        statuses.push(response.status);
      }
      expect(statuses.at(-1)).toBe(429);
    });
  });

  describe("HTML pages", () => {
    const pages: [string, () => Promise<Response>][] = [
      ["the API docs", () => t.request("/docs")],
      [
        "a refused sign-in",
        () =>
          t.request(
            "/auth/start?redirect_uri=%3Cscript%3Ealert(1)%3C%2Fscript%3E&code_challenge=%3Cimg%3E",
            { headers: { Accept: "text/html" } },
          ),
      ],
      [
        "an unknown sign-in",
        () =>
          t.request("/oauth/callback?state=%3Cscript%3E&error=%3Cscript%3E", {
            headers: { Accept: "text/html" },
          }),
      ],
      [
        "a rate-limited sign-in",
        async () => {
          const ip = freshIp();
          for (let i = 0; i < 10; i += 1) await t.request("/auth/start", { ip });
          return t.request("/auth/start", { ip, headers: { Accept: "text/html" } });
        },
      ],
    ];

    it.each(pages)(
      "serves %s under a script-free CSP that cannot be framed",
      async (_name, load) => {
        const response = await load();
        expect(response.headers.get("content-type")).toMatch(/^text\/html/);
        const csp = response.headers.get("content-security-policy") ?? "";
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("frame-ancestors 'none'");
        // Not covered by default-src: without these a page could be re-based or post a form away.
        expect(csp).toContain("base-uri 'none'");
        expect(csp).toContain("form-action 'self'");
        expect(csp).not.toMatch(/script-src|unsafe-eval/);
        expect(response.headers.get("x-frame-options")).toBe("DENY");
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("referrer-policy")).toBe("no-referrer");
        const body = await response.text();
        expect(body).not.toMatch(/<script|<img|alert\(/i);
      },
    );

    it("sends JSON answers with nosniff and no framing too", async () => {
      const response = await t.request("/api/me", { session });
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    });
  });
});

/**
 * Behind proxies (TRUST_PROXY): the client address is the entry of X-Forwarded-For the nearest
 * trusted proxy wrote, counted from the right. What a client writes into the header itself
 * lands to the left of it, so it changes nothing. One driver: rate-limit buckets are tested on
 * both in `test/auth/rate-limits.test.ts`.
 */
describe("client addresses behind a proxy", () => {
  const PROXY = "10.0.0.2";
  let one: TestBackend;
  let two: TestBackend;
  beforeAll(async () => {
    one = await startTestBackend({ driver: "pglite", config: { TRUST_PROXY: "true" } });
    two = await startTestBackend({ driver: "pglite", config: { TRUST_PROXY: "2" } });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  /** The statuses of twelve sign-in starts, each with the X-Forwarded-For `forwarded(i)`. */
  async function starts(t: TestBackend, forwarded: (i: number) => string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const response = await t.request("/auth/start", {
        ip: PROXY,
        headers: { "X-Forwarded-For": forwarded(i) },
      });
      statuses.push(response.status);
    }
    return statuses;
  }

  it("tells the clients one proxy names apart (the valid case)", async () => {
    const statuses = await starts(one, (i) => `198.51.100.${i}`);
    expect(statuses.every((status) => status === 400)).toBe(true);
  });

  it("limits a client that writes its own X-Forwarded-For entries before the proxy's", async () => {
    const statuses = await starts(one, (i) => `203.0.113.${i}, 198.51.100.77`);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("with TRUST_PROXY=2, takes the entry the outer proxy wrote, past the inner one's", async () => {
    const statuses = await starts(two, (i) => `203.0.113.${i}, 198.51.100.78, 10.0.0.1`);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const apart = await starts(two, (i) => `198.51.100.${100 + i}, 10.0.0.1`);
    expect(apart.every((status) => status === 400)).toBe(true);
  });
});
