import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";

/**
 * The sign-in limits live in the database (services/rate-limits.ts): per-endpoint behaviour is
 * in http-guards.test.ts; here, what only a shared store gives.
 */
describeEachDriver("sign-in rate limits shared by every instance", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver, secondInstance: true });
  });
  afterAll(() => t.close());

  const buckets = () =>
    selectRows<{ key_hash: string }>(t.database.db, sql`select key_hash from rate_limits`);

  it("counts one client's requests to two instances against one limit", async () => {
    const second = t.second;
    if (!second) throw new Error("the harness opened no second instance");
    const ip = "198.51.100.21";
    const statuses: number[] = [];
    // The burst is 10: six on one instance, then five on the other.
    for (let i = 0; i < 6; i += 1) statuses.push((await t.request("/auth/start", { ip })).status);
    for (let i = 0; i < 5; i += 1)
      statuses.push((await second.request("/auth/start", { ip })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
  });

  it("stores a hash of the endpoint and address, never the address", async () => {
    const ip = "198.51.100.22";
    await t.request("/auth/start", { ip });
    const keys = (await buckets()).map((row) => row.key_hash);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(key).not.toContain("198.51");
    }
  });

  it("forgets buckets idle long enough to be full again", async () => {
    await t.request("/auth/start", { ip: "198.51.100.23" });
    const before = (await buckets()).length;
    expect(before).toBeGreaterThan(0);
    // A bucket of 10 refills at 20 a minute: full again after 30 s.
    await t.emu.control.clock.advance(31_000);
    // Pruning runs every 500 takes of a store: one fresh client's requests get there.
    for (let i = 0; i < 500; i += 1) await t.request("/auth/start", { ip: "198.51.100.24" });
    expect((await buckets()).length).toBe(1);
  });
});
