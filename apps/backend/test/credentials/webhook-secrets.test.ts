import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import { selectRows } from "../support/sql.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";

interface SecretStatus {
  namespace: string;
  configured: boolean;
  updated_at: string | null;
  previous_valid_until: string | null;
}

describeEachDriver("webhook secrets", (driver) => {
  let t: TestBackend;
  let session: string;
  let userId: number;
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    ({ sessionToken: session, userId } = await t.signIn());
  });
  afterAll(() => t.close());

  const path = (ns: string) => `/api/namespaces/${ns}/webhook-secret`;
  const put = (ns: string, secret: string, as = session) =>
    t.request(path(ns), { method: "PUT", session: as, body: JSON.stringify({ secret }) });
  const status = async (ns: string, as = session) =>
    (await (await t.request(path(ns), { session: as })).json()) as SecretStatus;
  const secrets = () => t.backend.deps.services.webhookSecrets;

  it("reports no secret before one is stored", async () => {
    expect(await status("overture-lab")).toEqual({
      namespace: "overture-lab",
      configured: false,
      updated_at: null,
      previous_valid_until: null,
    });
  });

  it("stores a secret and reports it as configured without ever returning it", async () => {
    expect((await put("demo", "whsec_first-secret-value")).status).toBe(204);
    const response = await t.request(path("demo"), { session });
    const text = await response.text();
    expect(text).not.toContain("whsec_first-secret-value");
    expect(JSON.parse(text)).toMatchObject({
      configured: true,
      updated_at: new Date(t.clock.now()).toISOString(),
    });
    expect(await secrets().secretsFor(userId, "demo")).toEqual({
      current: "whsec_first-secret-value",
      previous: null,
      former: [],
    });
  });

  it("keeps no plaintext secret in the database", async () => {
    await put("demo", "whsec_look-for-me-in-the-db");
    const rows = await selectRows<{ row: string }>(
      t.database.db,
      sql`select to_jsonb(w)::text as row from webhook_secrets w`,
    );
    const dump = rows.map((r) => r.row).join("\n");
    expect(dump).toContain("secret_enc");
    expect(dump).not.toContain("look-for-me");
  });

  it("refuses a secret with surrounding whitespace, saying so", async () => {
    const response = await put("demo", "whsec_pasted-with-newline\n");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/whitespace/);
  });

  it("refuses an empty secret", async () => {
    expect((await put("demo", "")).status).toBe(400);
  });

  it("refuses a secret longer than 512 characters", async () => {
    expect((await put("demo", "x".repeat(513))).status).toBe(400);
  });

  it("accepts a secret of exactly 512 characters", async () => {
    expect((await put("overture-lab", "y".repeat(512))).status).toBe(204);
  });

  it("the service refuses whitespace too, for callers other than the route", async () => {
    await expect(secrets().set(userId, "demo", " padded")).rejects.toMatchObject({
      status: 400,
      code: "invalid_secret",
    });
  });

  it("keeps the previous secret valid for the grace period after a reset", async () => {
    await put("demo", "whsec_before-reset");
    await put("demo", "whsec_after-reset");
    const graceEnds = t.clock.now() + t.config.webhook.secretGraceMs;
    expect((await status("demo")).previous_valid_until).toBe(new Date(graceEnds).toISOString());
    expect(await secrets().secretsFor(userId, "demo")).toEqual({
      current: "whsec_after-reset",
      previous: "whsec_before-reset",
      former: [],
    });
  });

  it("stops accepting the previous secret once the grace period is over, keeping it only to explain mismatches", async () => {
    await put("demo", "whsec_old");
    await put("demo", "whsec_new");
    await t.emu.control.clock.advance(t.config.webhook.secretGraceMs + 1);
    expect(await secrets().secretsFor(userId, "demo")).toEqual({
      current: "whsec_new",
      previous: null,
      former: ["whsec_old"],
    });
    expect((await status("demo")).previous_valid_until).toBeNull();
  });

  it("saving the same secret again is not a reset", async () => {
    await put("demo", "whsec_same");
    await t.emu.control.clock.advance(t.config.webhook.secretGraceMs + 1);
    await put("demo", "whsec_same");
    expect(await secrets().secretsFor(userId, "demo")).toMatchObject({
      current: "whsec_same",
      previous: null,
    });
  });

  it("forgets the secret on DELETE", async () => {
    await put("demo", "whsec_to-forget");
    expect((await t.request(path("demo"), { method: "DELETE", session })).status).toBe(204);
    expect((await status("demo")).configured).toBe(false);
    expect(await secrets().has(userId, "demo")).toBe(false);
  });

  it("keeps each user's secret for a shared namespace apart", async () => {
    const ada = await t.signIn({ login: "ada" });
    await put("overture-lab", "whsec_demo-lab");
    await put("overture-lab", "whsec_ada-lab", ada.sessionToken);
    expect((await secrets().secretsFor(userId, "overture-lab")).current).toBe("whsec_demo-lab");
    expect((await secrets().secretsFor(ada.userId, "overture-lab")).current).toBe("whsec_ada-lab");
  });

  it("rejects a malformed namespace", async () => {
    expect((await put("-leading-dash", "whsec_x")).status).toBe(400);
  });
});
