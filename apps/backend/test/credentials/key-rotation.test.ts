import { randomBytes } from "node:crypto";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../src/db/open.ts";
import { grants, proxyTokens, webhookSecrets } from "../../src/db/schema/index.ts";
import { childBackend, runCliProcess, type ChildBackend } from "../support/child-backend.ts";
import { describeEachDriver } from "../support/drivers.ts";
import {
  freePort,
  liveClient,
  liveDatabase,
  liveEnv,
  startLiveEmulator,
  waitFor,
} from "../support/live.ts";
import { tearDown } from "../support/teardown.ts";

const keyList = (...ids: string[]) => ids.map((id) => `${id}:${KEYS[id] ?? ""}`).join(",");
const KEYS: Record<string, string> = Object.fromEntries(
  ["k1", "k2", "k3"].map((id) => [id, randomBytes(32).toString("base64")]),
);

/**
 * The key rotation of docs/self-hosting.md ("Key rotation"), as an operator runs it: a backend
 * process sealing under k1 holds one value in every sealed column; it is restarted with `k2,k1`,
 * `overture-backend reseal` runs (beside it on Postgres; with it stopped on PGlite, as the docs
 * say), and it is restarted with k2 alone. Then the failure the docs describe: a key list that
 * opens nothing makes `reseal` exit 1, and destroys nothing.
 */
describeEachDriver("rotating TOKEN_ENCRYPTION_KEYS as docs/self-hosting.md says", (driver) => {
  let emu: RunningEmulator;
  let database: Awaited<ReturnType<typeof liveDatabase>>;
  let port: number;
  const children: ChildBackend[] = [];

  beforeAll(async () => {
    database = await liveDatabase(driver);
    port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`, {
      timing: { waitingMs: 200, runningMs: 500, failureRate: 0 },
    });
  });
  afterAll(() =>
    tearDown([
      ["backend processes", () => Promise.all(children.map((child) => child.stop()))],
      // Either is unset when beforeAll failed before it.
      ["emulator", async () => (emu as RunningEmulator | undefined)?.close()],
      ["database", async () => (database as typeof database | undefined)?.drop()],
    ]),
  );

  const envWith = (keys: string) =>
    liveEnv(port, emu.url, database.database, {
      TOKEN_ENCRYPTION_KEYS: keys,
      LOG_LEVEL: "info",
    });

  async function start(keys: string): Promise<ChildBackend> {
    const child = childBackend(envWith(keys));
    children.push(child);
    await child.start();
    return child;
  }

  const reseal = (keys: string) => runCliProcess(["reseal"], envWith(keys));

  /** Every sealed value by column, read while no backend holds the database (PGlite's rule). */
  async function sealed(): Promise<Record<string, string[]>> {
    const db = await openDatabase(
      "url" in database.database
        ? { driver: "pg", url: database.database.url }
        : { driver: "pglite", dataDir: database.database.dataDir },
    );
    try {
      const g = await db.db.select().from(grants);
      const w = await db.db.select().from(webhookSecrets);
      const p = await db.db.select().from(proxyTokens);
      const present = (values: (string | null)[]) => values.filter((v) => v !== null);
      return {
        access: g.map((r) => r.accessTokenEnc),
        refresh: present(g.map((r) => r.refreshTokenEnc)),
        secret: w.map((r) => r.secretEnc),
        previous: present(w.map((r) => r.previousSecretEnc)),
        proxy: p.map((r) => r.tokenEnc),
      };
    } finally {
      await db.close();
    }
  }

  /** The key id of every sealed value, by column (`v1.<key id>.<iv>.<body>`). */
  const keyIds = (values: Record<string, string[]>) =>
    Object.fromEntries(
      Object.entries(values).map(([column, list]) => [column, list.map((v) => v.split(".")[1])]),
    );

  /** Counts in the backend's "re-sealed under the current key" log lines. */
  const resealedInLogs = (child: ChildBackend) =>
    child.lines
      .map((line) => JSON.parse(line) as { msg?: string; resealed?: number })
      .filter((entry) => entry.msg === "re-sealed under the current key")
      .reduce((sum, entry) => sum + (entry.resealed ?? 0), 0);

  let session = "";
  const taskIds: string[] = [];

  /**
   * What a signed-in user does, all of it through a stored sealed value: lists tasks, reaches the
   * platform with the grant (its access tokens), submits a task with the proxy token, and the
   * task's webhooks verify against the stored secret (the platform counts them delivered).
   */
  async function stillWorks(child: ChildBackend): Promise<void> {
    const client = liveClient(child.url);
    const listed = await client.listTasks(session);
    expect(listed.map((t) => t.id)).toEqual(expect.arrayContaining(taskIds));
    const tokens = await client.request("/api/namespaces/demo/tokens", { session });
    expect(tokens.status).toBe(200);
    const task = await client.createTask(session, `rotation ${taskIds.length}`);
    taskIds.push(task.id);
    const platformId = task.platform_task_id ?? "";
    await waitFor(
      `the webhooks of task ${platformId} to be delivered`,
      () => {
        const deliveries = emu.control.listDeliveries({ taskId: platformId });
        return (
          emu.control.getTask(platformId)?.status === "success" &&
          deliveries.length > 0 &&
          deliveries.every((d) => d.state === "succeeded")
        );
      },
      30_000,
      100,
    );
    const seen = (await client.listTasks(session)).find((t) => t.id === task.id);
    expect(seen?.status).toBe("success");
  }

  it("re-seals every value under the new key and keeps every session working", async () => {
    // 1. Only k1: a user signs in, saves a webhook secret twice (the second keeps the first as
    //    previous) and submits a task (a proxy token is minted): every sealed column holds a value.
    let child = await start(keyList("k1"));
    const client = liveClient(child.url);
    session = await client.signIn();
    await client.prepareTasks(session, emu);
    const secret = emu.control.resetWebhookSecret("demo");
    const stored = await client.request("/api/namespaces/demo/webhook-secret", {
      method: "PUT",
      session,
      body: JSON.stringify({ secret }),
    });
    expect(stored.status).toBe(204);
    await stillWorks(child);
    await child.stop();
    const underK1 = keyIds(await sealed());
    expect(underK1).toEqual({
      access: ["k1"],
      refresh: ["k1"],
      secret: ["k1"],
      previous: ["k1"],
      proxy: ["k1"],
    });

    // 2. k2 first, k1 kept: the same session works, through values still sealed under k1.
    child = await start(keyList("k2", "k1"));
    await stillWorks(child);

    // 3. `reseal`: beside the running instance on Postgres, with it stopped on PGlite. The
    //    instance re-seals at start too, so the two together re-seal each value exactly once.
    if (driver === "pglite") await child.stop();
    const resealed = await reseal(keyList("k2", "k1"));
    expect(resealed.code).toBe(0);
    const count = /^re-sealed under key k2: (\d+)$/m.exec(resealed.stdout)?.[1];
    expect(count, resealed.stdout).toBeDefined();
    await child.stop();
    expect(resealedInLogs(child) + Number(count)).toBe(5);
    const values = await sealed();
    expect(keyIds(values)).toEqual({
      access: ["k2"],
      refresh: ["k2"],
      secret: ["k2"],
      previous: ["k2"],
      proxy: ["k2"],
    });

    // 4. k1 removed: everything still works; nothing was left for the instance to re-seal.
    child = await start(keyList("k2"));
    await stillWorks(child);
    await child.stop();
    expect(resealedInLogs(child)).toBe(0);
    expect(child.lines.join("\n")).not.toContain("open with no listed key");
    expect(await sealed()).toEqual(values);
  }, 150_000);

  it("exits 1 when values open with no listed key, and destroys nothing", async () => {
    // A key list that opens nothing (k2 removed too early): the instance starts, cannot open the
    // grant, and leaves every value as it is.
    expect(session, "the rotation above signed in").not.toBe("");
    const before = await sealed();
    let child = await start(keyList("k3"));
    const tokens = await liveClient(child.url).request("/api/namespaces/demo/tokens", { session });
    // Its owner is asked to sign in again (the extension's cue), and nothing is rewritten.
    expect(tokens.status).toBe(401);
    expect(await tokens.json()).toMatchObject({ error: "reauthentication_required" });
    if (driver === "pglite") await child.stop();
    const failed = await reseal(keyList("k3"));
    await child.stop();
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("re-sealed under key k3: 0");
    expect(failed.stdout).toContain(
      "5 value(s) open with no listed key: list again a key removed too early",
    );
    expect(child.lines.join("\n")).toContain("open with no listed key were left as they are");
    expect(await sealed()).toEqual(before);

    // The right key listed again: the same session works, and `reseal` finds nothing to do.
    child = await start(keyList("k2"));
    await stillWorks(child);
    if (driver === "pglite") await child.stop();
    expect(await reseal(keyList("k2"))).toMatchObject({
      code: 0,
      stdout: "re-sealed under key k2: 0\n",
    });
  }, 120_000);
});
