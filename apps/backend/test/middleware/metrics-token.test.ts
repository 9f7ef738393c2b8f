import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";

const TOKEN = "metrics-0123456789abcdef";

describeEachDriver("/metrics behind METRICS_TOKEN", (driver) => {
  // Both run as in production; only the token differs.
  let guarded: TestBackend;
  let open: TestBackend;
  beforeAll(async () => {
    guarded = await startTestBackend({
      driver,
      config: { NODE_ENV: "production", METRICS_TOKEN: TOKEN },
    });
    open = await startTestBackend({ driver, config: { NODE_ENV: "production" } });
  });
  afterAll(async () => {
    await guarded.close();
    await open.close();
  });

  const scrape = (t: TestBackend, authorization?: string) =>
    t.request("/metrics", authorization ? { headers: { Authorization: authorization } } : {});

  /** A refusal: 401, the usual JSON error body, and a challenge naming the scheme. */
  async function expectRefused(response: Response): Promise<void> {
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect(await response.json()).toEqual({
      error: "unauthenticated",
      message: expect.stringContaining("METRICS_TOKEN") as string,
    });
  }

  it("serves /metrics to anyone while METRICS_TOKEN is unset", async () => {
    const response = await scrape(open);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("# TYPE overture_sse_clients");
  });

  it("warns once at start-up that /metrics is public when production runs without a token", () => {
    const warnings = (t: TestBackend) =>
      t.logs.filter((line) => line.includes("METRICS_TOKEN is unset")).length;
    expect(warnings(open)).toBe(1);
    expect(warnings(guarded)).toBe(0);
  });

  it("serves /metrics to the configured bearer token", async () => {
    const response = await scrape(guarded, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("# TYPE overture_sse_clients");
  });

  it("refuses /metrics without a bearer token", async () => {
    await expectRefused(await scrape(guarded));
  });

  it("refuses /metrics with a wrong token of the right length", async () => {
    await expectRefused(await scrape(guarded, `Bearer ${TOKEN.slice(0, -1)}0`));
  });

  it("refuses /metrics with a token of another length, the configured one plus a character", async () => {
    await expectRefused(await scrape(guarded, `Bearer ${TOKEN}0`));
  });
});
