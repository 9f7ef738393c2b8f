import { PlatformError } from "@overture/core/errors";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { proxyTokens } from "../../src/db/schema/index.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { CLIENT_ID, startTestBackend, type TestBackend } from "../support/harness.ts";

const SECOND = 1000;

describeEachDriver("proxy tokens", (driver) => {
  let t: TestBackend;
  let userId: number;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
  });
  beforeEach(async () => {
    // A fresh sign-in drops the user's cached proxy tokens, so every test starts uncached.
    userId = (await t.signIn()).userId;
  });
  afterAll(() => t.close());

  const service = () => t.backend.deps.services.proxyTokens;
  const mints = () =>
    t.platformCalls.filter((c) => c.path === "/api/open/v1/demo/tokens/101").length;

  it("mints a proxy token the platform's task API accepts", async () => {
    const token = await service().get(userId, "demo", 101);
    const quota = await t.emu.app.request("http://127.0.0.1:4010/v1/tasks/available-quota", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(quota.status).toBe(200);
  });

  it("mints once while the cached token is valid", async () => {
    const before = mints();
    const first = await service().get(userId, "demo", 101);
    const second = await service().get(userId, "demo", 101);
    expect(second).toBe(first);
    expect(mints()).toBe(before + 1);
  });

  it("keeps using the cached token until the safety margin before expires_in", async () => {
    await service().get(userId, "demo", 101);
    const before = mints();
    // 1800 s lifetime, 60 s margin: still served at 1739 s.
    await t.emu.control.clock.advance(1739 * SECOND);
    await service().get(userId, "demo", 101);
    expect(mints()).toBe(before);
  });

  it("mints again once the cached token is within the safety margin", async () => {
    const first = await service().get(userId, "demo", 101);
    const before = mints();
    await t.emu.control.clock.advance(1741 * SECOND);
    const next = await service().get(userId, "demo", 101);
    expect(next).not.toBe(first);
    expect(mints()).toBe(before + 1);
  });

  it("caches per access token id", async () => {
    const studio = await service().get(userId, "demo", 101);
    const sketchbook = await service().get(userId, "demo", 102);
    expect(sketchbook).not.toBe(studio);
  });

  it("drops a token that failed, so the next get mints once", async () => {
    const failed = await service().get(userId, "demo", 101);
    await service().invalidate(userId, "demo", 101, failed);
    const before = mints();
    const fresh = await service().get(userId, "demo", 101);
    await service().get(userId, "demo", 101);
    expect(fresh).not.toBe(failed);
    expect(mints()).toBe(before + 1);
  });

  it("keeps the cached token when the failed one is an older token", async () => {
    const current = await service().get(userId, "demo", 101);
    await service().invalidate(userId, "demo", 101, "an-older-token");
    expect(await service().get(userId, "demo", 101)).toBe(current);
  });

  it("retries once with a new token after a 401", async () => {
    const seen: string[] = [];
    const result = await service().withProxyToken(userId, "demo", 101, (token) => {
      seen.push(token);
      if (seen.length === 1)
        return Promise.reject(
          new PlatformError("PLATFORM_UNAUTHORIZED", "expired", { status: 401 }),
        );
      return Promise.resolve("done");
    });
    expect(result).toBe("done");
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
  });

  it("drops the new token too when the platform refuses it as well, so the next get mints again", async () => {
    const seen: string[] = [];
    const refused = new PlatformError("PLATFORM_UNAUTHORIZED", "refused", { status: 401 });
    await expect(
      service().withProxyToken(userId, "demo", 101, (token) => {
        seen.push(token);
        return Promise.reject(refused);
      }),
    ).rejects.toBe(refused);
    expect(seen).toHaveLength(2);
    const before = mints();
    const next = await service().get(userId, "demo", 101);
    expect(next).not.toBe(seen[1]);
    expect(mints()).toBe(before + 1);
  });

  it("asks for a new sign-in when the app was revoked on the platform", async () => {
    await service().get(userId, "demo", 101);
    t.emu.control.revokeAuthorization({ clientId: CLIENT_ID, userId });
    const platform = t.backend.deps.platform;
    await expect(
      service().withProxyToken(userId, "demo", 101, (token) => platform.getAvailableQuota(token)),
    ).rejects.toMatchObject({ status: 401, code: "reauthentication_required" });
    const rows = await t.database.db.select().from(proxyTokens);
    expect(rows.filter((r) => r.userId === userId)).toHaveLength(0);
  });

  it("reports an access token the namespace does not have", async () => {
    await expect(service().get(userId, "demo", 999)).rejects.toMatchObject({
      status: 404,
      code: "access_token_not_found",
    });
  });
});

describeEachDriver("proxy tokens with a short lifetime", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { proxyTokenTtlSeconds: 300 } });
  });
  afterAll(() => t.close());

  it("follows the returned expires_in (300 s: 30 s margin)", async () => {
    const { userId } = await t.signIn();
    const service = t.backend.deps.services.proxyTokens;
    const first = await service.get(userId, "demo", 101);
    await t.emu.control.clock.advance(269 * SECOND);
    expect(await service.get(userId, "demo", 101)).toBe(first);
    await t.emu.control.clock.advance(2 * SECOND);
    expect(await service.get(userId, "demo", 101)).not.toBe(first);
  });
});
