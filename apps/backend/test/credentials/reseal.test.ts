import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { createBackend, type Backend } from "../../src/backend.ts";
import { RESEAL_ROUNDS, reseal } from "../../src/cli/maintenance.ts";
import type { AppDatabase } from "../../src/db/client.ts";
import { grants, proxyTokens, webhookSecrets } from "../../src/db/schema/index.ts";
import { parseEnv } from "../../src/env/env.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createVault, type Vault } from "../../src/lib/vault.ts";
import { accessContext, refreshContext } from "../../src/services/credentials/grants.ts";
import { proxyTokenContext } from "../../src/services/credentials/proxy-tokens.ts";
import { createResealer } from "../../src/services/credentials/reseal.ts";
import { webhookSecretContext } from "../../src/services/credentials/webhook-secrets.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, testEnv, type TestBackend } from "../support/harness.ts";
import { createTask, setUpTaskUser, storeSecret, type TaskUser } from "../support/tasks.ts";

const key = (id: string) => ({ id, key: randomBytes(32).toString("base64") });
const keyList = (keys: readonly { id: string; key: string }[]) =>
  keys.map((k) => `${k.id}:${k.key}`).join(",");

interface SealedValue {
  where: string;
  sealed: string;
  context: string;
}

/** Every sealed value in the database, found from the schema (not from the re-seal's own list). */
async function sealedValues(db: AppDatabase): Promise<SealedValue[]> {
  const values: SealedValue[] = [];
  for (const g of await db.select().from(grants)) {
    values.push({ where: "access", sealed: g.accessTokenEnc, context: accessContext(g.userId) });
    if (g.refreshTokenEnc)
      values.push({
        where: "refresh",
        sealed: g.refreshTokenEnc,
        context: refreshContext(g.userId),
      });
  }
  for (const w of await db.select().from(webhookSecrets)) {
    const context = webhookSecretContext(w.userId, w.namespace);
    values.push({ where: "secret", sealed: w.secretEnc, context });
    if (w.previousSecretEnc)
      values.push({ where: "previous", sealed: w.previousSecretEnc, context });
  }
  for (const p of await db.select().from(proxyTokens)) {
    const context = proxyTokenContext(p.userId, p.namespace, p.tokenId);
    values.push({ where: "proxy", sealed: p.tokenEnc, context });
  }
  return values;
}

const opened = (vault: Vault, values: readonly SealedValue[]) =>
  Object.fromEntries(values.map((v) => [v.where, vault.open(v.sealed, v.context)]));

describeEachDriver("re-sealing after a key rotation", (driver) => {
  const oldKey = key("old");
  const newKey = key("new");
  let t: TestBackend;
  let user: TaskUser;
  const extra: Backend[] = [];

  /** A backend sealing with `old` that holds one value in every sealed column. */
  async function setUp(): Promise<Record<string, string>> {
    t = await startTestBackend({
      driver,
      config: { TOKEN_ENCRYPTION_KEYS: keyList([oldKey]) },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    await createTask(t, user.session); // mints and caches a proxy token
    await storeSecret(t, user.session, user.namespace, "the-second-secret"); // fills previous_secret_enc
    const values = await sealedValues(t.database.db);
    expect(values.map((v) => v.where).sort()).toEqual([
      "access",
      "previous",
      "proxy",
      "refresh",
      "secret",
    ]);
    expect(values.every((v) => v.sealed.startsWith("v1.old."))).toBe(true);
    return opened(createVault([oldKey]), values);
  }

  /** Another backend on the same database with another key list (a restart after rotation). */
  async function restartWith(keys: readonly { id: string; key: string }[]): Promise<Backend> {
    const backend = await createBackend(
      parseEnv(testEnv({ TOKEN_ENCRYPTION_KEYS: keyList(keys) })),
      {
        database: t.database,
        clock: t.clock,
        logger: createLogger("debug", { write: (line: string) => void t.logs.push(line) }),
        fetch: (input, init) => Promise.resolve(t.emu.app.request(new Request(input, init))),
        workers: false,
      },
    );
    extra.push(backend);
    return backend;
  }

  afterEach(async () => {
    for (const backend of extra.splice(0)) await backend.stop();
    await t.close();
  });

  it("re-seals values of the retired key under the current one, to the same plaintext", async () => {
    const before = await setUp();
    const rotated = await restartWith([newKey, oldKey]);
    expect(await rotated.deps.services.resealer.runOnce()).toEqual({ resealed: 5, failed: 0 });
    const after = await sealedValues(t.database.db);
    expect(after.filter((v) => !v.sealed.startsWith("v1.new."))).toEqual([]);
    expect(opened(createVault([newKey, oldKey]), after)).toEqual(before);
  });

  it("leaves a value that no listed key opens as it is, reports it and re-seals the rest", async () => {
    await setUp();
    const lost = createVault([key("lost")]).seal(
      "unrecoverable",
      webhookSecretContext(user.userId, user.namespace),
    );
    await t.database.db
      .update(webhookSecrets)
      .set({ previousSecretEnc: lost })
      .where(eq(webhookSecrets.userId, user.userId));
    const rotated = await restartWith([newKey, oldKey]);
    const logsBefore = t.logs.length;

    expect(await rotated.deps.services.resealer.runOnce()).toEqual({ resealed: 4, failed: 1 });
    const after = await sealedValues(t.database.db);
    expect(after.find((v) => v.where === "previous")?.sealed).toBe(lost);
    expect(
      after.filter((v) => v.where !== "previous").every((v) => v.sealed.startsWith("v1.new.")),
    ).toBe(true);
    const logged = t.logs.slice(logsBefore).join("\n");
    expect(logged).toContain('"column":"webhook_secrets.previous_secret_enc","failed":1');
    expect(logged).not.toContain(lost);
  });

  it("pages past values that do not open, so they never hold up the rest", async () => {
    await setUp();
    // Sorts before the user's own namespace, so it is the first row in key order.
    const lost = createVault([key("lost")]).seal("x", webhookSecretContext(user.userId, "aaa"));
    await t.database.db
      .insert(webhookSecrets)
      .values({ userId: user.userId, namespace: "aaa", secretEnc: lost });
    const resealer = createResealer(
      { db: t.database.db, vault: createVault([newKey, oldKey]), logger: createLogger("silent") },
      { batchSize: 1 },
    );

    // A round that keeps re-reading the value that fails never ends: give up and stop it instead.
    const outcome = await Promise.race([resealer.runOnce(), sleep(5_000, "gave up")]);
    await resealer.stop();
    expect(outcome).toMatchObject({ failed: 1 });
    const secrets = await t.database.db.select().from(webhookSecrets);
    expect(secrets.map((w) => w.secretEnc.split(".")[1]).sort()).toEqual(["lost", "new"]);
  });

  it("resolves what opens with no listed key as the docs say: the owner signs in and saves the webhook secret again", async () => {
    await setUp();
    // The old key removed before any re-seal: nothing opens.
    const { services } = (await restartWith([newKey])).deps;
    expect(await services.resealer.runOnce()).toEqual({ resealed: 0, failed: 5 });
    // Its owner is asked to sign in again, and the grant is kept for a key listed again.
    await expect(services.grants.accessToken(user.userId)).rejects.toMatchObject({
      status: 401,
      code: "reauthentication_required",
    });
    expect((await sealedValues(t.database.db)).find((v) => v.where === "access")?.sealed).toMatch(
      /^v1\.old\./,
    );

    // A sign-in stores a new grant (and drops the proxy tokens); the secret is saved anew.
    await services.grants.store(
      user.userId,
      { access_token: "fresh-access", refresh_token: "fresh-refresh", token_type: "Bearer" },
      "openid",
      Date.now(),
    );
    await services.webhookSecrets.set(user.userId, user.namespace, "the-third-secret");
    expect(await services.resealer.runOnce()).toEqual({ resealed: 0, failed: 0 });
    expect(await services.webhookSecrets.secretsFor(user.userId, user.namespace)).toEqual({
      current: "the-third-secret",
      previous: null,
      former: [],
    });
  });

  // Postgres only: a PGlite folder is opened by one process at a time, so no other process can
  // hold its rows.
  if (driver === "pg")
    it("the reseal command waits for the values another process holds, and exits 0 only once none is left on the old key", async () => {
      const before = await setUp();
      const url = t.databaseUrl ?? "";
      // An instance re-sealing the same rows at the same moment holds them FOR UPDATE.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      await holder.query("begin");
      await holder.query("select 1 from webhook_secrets where user_id = $1 for update", [
        user.userId,
      ]);
      const lines: string[] = [];
      const config = parseEnv(
        testEnv({ TOKEN_ENCRYPTION_KEYS: keyList([newKey, oldKey]), DATABASE_URL: url }),
      );
      const running = reseal(config, { out: (line) => lines.push(line), err: () => undefined });

      const first = await Promise.race([
        running.then(() => "ended"),
        sleep(RESEAL_ROUNDS.apartMs * 1.5).then(() => "still waiting"),
      ]);
      expect(first).toBe("still waiting");
      await holder.query("rollback");
      await holder.end();
      expect(await running).toBe(0);
      expect(lines).toEqual(["re-sealed under key new: 5"]);
      const after = await sealedValues(t.database.db);
      expect(after.filter((v) => !v.sealed.startsWith("v1.new."))).toEqual([]);
      expect(opened(createVault([newKey, oldKey]), after)).toEqual(before);
    }, 30_000);

  it("lets the retired key be dropped once re-sealed: a backend without it opens everything", async () => {
    const before = await setUp();
    await (await restartWith([newKey, oldKey])).deps.services.resealer.runOnce();
    const { services } = (await restartWith([newKey])).deps;

    expect(opened(createVault([newKey]), await sealedValues(t.database.db))).toEqual(before);
    const secrets = await services.webhookSecrets.secretsFor(user.userId, user.namespace);
    expect(secrets).toMatchObject({ current: "the-second-secret", previous: before.previous });
    expect(
      await services.grants.withAccessToken(user.userId, (token) => Promise.resolve(token)),
    ).toBe(before.access);
  });
});
