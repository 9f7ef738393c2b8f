import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/harness.ts";

const HOUR = 3_600_000;

/**
 * Two backend instances on one database (pg: two connection pools, so the row and advisory locks
 * are really contended; PGlite: one shared embedded database). The emulator detects refresh-token
 * reuse, so an instance redeeming a refresh token its sibling already rotated would revoke the
 * grant and fail these tests.
 */
describeEachDriver("two instances on one database", (driver) => {
  let t: TestBackend;
  let sibling: TestInstance;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      emulator: { refreshTokenRotation: "rotate-detect-reuse" },
    });
    sibling = await t.openSecondInstance();
  });
  afterAll(() => t.close());

  const count = (predicate: (call: TestBackend["platformCalls"][number]) => boolean) =>
    t.platformCalls.filter(predicate).length;
  const refreshes = () => count((c) => c.grantType === "refresh_token");
  const mints = () => count((c) => /^\/api\/open\/v1\/demo\/tokens\/101$/.test(c.path));

  it("a session made on one instance works on the other", async () => {
    const user = await t.signIn();
    expect((await sibling.request("/api/me", { session: user.sessionToken })).status).toBe(200);
  });

  it("concurrent requests on both instances refresh an expired grant exactly once", async () => {
    const user = await t.signIn();
    await t.emu.control.clock.advance(2 * HOUR);
    const before = refreshes();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? t : sibling).request("/api/namespaces/demo/tokens", {
          session: user.sessionToken,
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(refreshes()).toBe(before + 1);
  });

  it("an instance uses the tokens its sibling rotated instead of redeeming the old refresh token", async () => {
    const user = await t.signIn();
    await t.emu.control.clock.advance(2 * HOUR);
    const first = await t.backend.deps.services.grants.accessToken(user.userId);
    const before = refreshes();
    const second = await sibling.backend.deps.services.grants.accessToken(user.userId);
    expect(second).toBe(first);
    expect(refreshes()).toBe(before);
    // The grant survived: reuse detection did not fire.
    expect(
      (await sibling.request("/api/namespaces/demo/tokens", { session: user.sessionToken })).status,
    ).toBe(200);
  });

  it("concurrent requests on both instances mint a proxy token exactly once", async () => {
    const user = await t.signIn();
    await t.emu.control.clock.advance(2 * HOUR);
    const beforeMints = mints();
    const beforeRefreshes = refreshes();
    const tokens = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? t : sibling).backend.deps.services.proxyTokens.get(user.userId, "demo", 101),
      ),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(mints()).toBe(beforeMints + 1);
    expect(refreshes()).toBe(beforeRefreshes + 1);
  });
});
