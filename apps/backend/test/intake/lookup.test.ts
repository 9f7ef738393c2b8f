import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createIntakeLookup } from "../../src/services/intake/lookup.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

describeEachDriver("webhook intake lookup", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let keyHashes: string[];
  beforeAll(async () => {
    t = await startTestBackend({ driver });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 10);
    for (let i = 0; i < 3; i++) await createTask(t, user.session);
    keyHashes = (
      await selectRows<{ hash: string }>(
        t.database.db,
        sql`select webhook_key_hash as hash from tasks where user_id = ${user.userId} and webhook_key_hash is not null`,
      )
    ).map((r) => r.hash);
  });
  afterAll(() => t.close());

  /** The lookup on a database that counts the queries it is asked for. */
  function countingLookup() {
    const counter = { selects: 0 };
    const lookup = createIntakeLookup({
      database: {
        query(statement) {
          counter.selects += 1;
          return t.database.query(statement);
        },
      },
      secrets: () => t.backend.deps.services.webhookSecrets,
      now: () => t.clock.now(),
    });
    return { lookup, counter };
  }

  it("reads the tasks of concurrent first callbacks in one query, unknown keys included", async () => {
    const { lookup, counter } = countingLookup();
    expect(keyHashes).toHaveLength(3);
    const found = await Promise.all([...keyHashes, "0".repeat(64)].map((h) => lookup.target(h)));
    expect(counter.selects).toBe(1);
    expect(found.slice(0, 3).every((target) => target?.userId === user.userId)).toBe(true);
    expect(found[3]).toBeUndefined();
  });

  it("knows a primed key without a read", async () => {
    const { lookup, counter } = countingLookup();
    const target = {
      taskId: "t",
      userId: user.userId,
      namespace: user.namespace,
      platformTaskId: null,
    };
    lookup.prime("a".repeat(64), target);
    expect(await lookup.target("a".repeat(64))).toEqual(target);
    expect(counter.selects).toBe(0);
  });

  it("takes the first callback of a task it submitted without reading the task's key", async () => {
    const query = t.database.query.bind(t.database);
    let targetReads = 0;
    t.database.query = (statement) => {
      if (statement.name.startsWith("overture_intake_targets")) targetReads += 1;
      return query(statement);
    };
    try {
      const task = await createTask(t, user.session);
      const before = t.webhookArrivals.length;
      for (let round = 0; t.webhookArrivals.length === before; round += 1) {
        expect(round, "no callback within 2 emulated minutes").toBeLessThan(24);
        await t.emu.control.clock.advance(5_000);
      }
      await expect
        .poll(async () => (await getTask(t, user.session, task.id)).status)
        .not.toBe("waiting");
      expect(targetReads).toBe(0);
    } finally {
      t.database.query = query;
    }
  });

  it("says keys wait for a read from the first miss until the read is made", async () => {
    const { lookup } = countingLookup();
    expect(lookup.waiting).toBe(false);
    const found = lookup.target(keyHashes[0] ?? "");
    expect(lookup.waiting).toBe(true);
    expect((await found)?.userId).toBe(user.userId);
    expect(lookup.waiting).toBe(false);
    await lookup.target(keyHashes[0] ?? ""); // from memory: nothing to read
    expect(lookup.waiting).toBe(false);
  });

  it("answers a known key from memory afterwards, and asks again for an unknown one", async () => {
    const { lookup, counter } = countingLookup();
    const [first] = keyHashes;
    await lookup.target(first ?? "");
    await lookup.target("f".repeat(64));
    expect(counter.selects).toBe(2);
    await lookup.target(first ?? "");
    await lookup.target("f".repeat(64));
    expect(counter.selects).toBe(3);
  });

  /** The lookup with a secret source that counts its reads. */
  function countingSecrets() {
    const counter = { reads: 0 };
    const service = t.backend.deps.services.webhookSecrets;
    const lookup = createIntakeLookup({
      database: t.database,
      secrets: () => ({
        secretsFor(userId: number, namespace: string) {
          counter.reads += 1;
          return service.secretsFor(userId, namespace);
        },
      }),
      now: () => t.clock.now(),
    });
    return { lookup, counter };
  }

  it("reads an account's secrets once for deliveries that miss the cache together", async () => {
    const { lookup, counter } = countingSecrets();
    const answers = await Promise.all(
      [1, 2, 3].map(() => lookup.secrets(user.userId, user.namespace)),
    );
    expect(counter.reads).toBe(1);
    expect(answers.every((a) => a.set.valid.length === 1 && !a.cached)).toBe(true);
    expect((await lookup.secrets(user.userId, user.namespace)).cached).toBe(true);
  });

  it("reads again after the secrets were forgotten while a read was on its way", async () => {
    const { lookup, counter } = countingSecrets();
    const first = lookup.secrets(user.userId, user.namespace);
    lookup.forgetSecrets(user.userId, user.namespace);
    const second = lookup.secrets(user.userId, user.namespace);
    await Promise.all([first, second]);
    expect(counter.reads).toBe(2);
    await lookup.secrets(user.userId, user.namespace);
    expect(counter.reads).toBe(2);
  });
});
