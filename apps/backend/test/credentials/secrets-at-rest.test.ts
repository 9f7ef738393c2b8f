import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { dumpDatabase } from "../support/sql.ts";

const WEBHOOK_SECRET = "whsec_at-rest-check-5b1f0c";

/**
 * After a full run of everything that handles credentials (sign-in, refresh, proxy minting, a
 * webhook secret), no raw value the platform or the user handed over appears in any column of
 * any table, nor in any log line.
 */
describeEachDriver("credentials at rest", (driver) => {
  let t: TestBackend;
  let secrets: string[];
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    const user = await t.signIn();
    const { grants, proxyTokens } = t.backend.deps.services;
    await proxyTokens.get(user.userId, "demo", 101);
    await t.emu.control.clock.advance(2 * 3_600_000);
    await grants.accessToken(user.userId);
    await proxyTokens.get(user.userId, "demo", 102);
    const put = await t.request("/api/namespaces/demo/webhook-secret", {
      method: "PUT",
      session: user.sessionToken,
      body: JSON.stringify({ secret: WEBHOOK_SECRET }),
    });
    expect(put.status).toBe(204);
    secrets = [...t.platformSecrets, WEBHOOK_SECRET, user.sessionToken];
  });
  afterAll(() => t.close());

  const databaseDump = () => dumpDatabase(t.database.db);

  it("collected the raw values to look for (access, refresh and proxy tokens)", () => {
    // Two access tokens, two refresh tokens (rotation) and two proxy tokens at least.
    expect(t.platformSecrets.size).toBeGreaterThanOrEqual(6);
  });

  it("stores no raw token, secret or session token in any table", async () => {
    const dump = await databaseDump();
    expect(dump).toContain("v1.t1."); // sealed values are there…
    for (const secret of secrets)
      expect(dump.includes(secret), "a raw credential is in the database").toBe(false);
  });

  it("writes no raw token, secret or session token to the logs", () => {
    expect(t.logs.length).toBeGreaterThan(0);
    const logs = t.logs.join("\n");
    for (const secret of secrets)
      expect(logs.includes(secret), "a raw credential is in the logs").toBe(false);
  });
});
