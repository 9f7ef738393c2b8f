import type { RunningEmulator } from "@overture/platform-emulator/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, type TestDatabase } from "../support/databases.ts";
import { describePg } from "../support/drivers.ts";
import { flakyPglite } from "../support/flaky-pglite.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import {
  backwardMoves,
  deliveriesPending,
  platformFinished,
  printLedger,
  readLedger,
  expectBalanced,
} from "../support/ledger.ts";
import {
  freePort,
  liveClient,
  liveEnv,
  sleep,
  SPREAD_TIMING,
  startLiveBackend,
  startLiveEmulator,
  waitFor,
  type LiveBackend,
} from "../support/live.ts";
import { createTask, getTask, setUpTaskUser } from "../support/tasks.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { tearDown } from "../support/teardown.ts";

const OUTAGE_MS = 20_000;
const TASKS = 40;

/**
 * DESIGN "Webhook intake": if the database is unavailable the answer is 503, so the platform's
 * retries (200 ms, 5 s, 15 s, 30 s, 120 s) deliver later and nothing is lost. The machine's shared
 * Postgres is never stopped: the backend reaches its database through a TCP proxy this test
 * controls, and "stopping Postgres" is the proxy cutting every connection and refusing new ones.
 * Emulator and backend talk over real sockets on the real clock, so the retry schedule is the
 * emulator's own.
 */
describePg("Postgres stopped for 20 s under webhook load [pg, TCP proxy, real HTTP]", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let emu: RunningEmulator;
  let live: LiveBackend;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    const target = new URL(database.url ?? "");
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`, { timing: SPREAD_TIMING });
    live = await startLiveBackend(
      liveEnv(port, emu.url, { url: proxy.through(database.url ?? "") }, { LOG_LEVEL: "info" }),
    );
  });
  // Generous: on a saturated CI machine the drain, the worker stops and DROP DATABASE's checkpoint
  // once took longer than the default 60 s in all; tearDown names the slow step if it happens again.
  afterAll(
    () =>
      tearDown([
        ["the backend", () => live.close()],
        ["the emulator", () => emu.close()],
        ["the TCP proxy", () => proxy.close()],
        ["DROP DATABASE", () => database.drop()],
      ]),
    180_000,
  );

  it("answers 503 while it is down, recovers by itself, and after the platform's retries stores every event exactly once", async () => {
    const client = liveClient(live.url);
    const session = await client.signIn();
    await client.prepareTasks(session, emu);
    const created = [];
    for (let i = 0; i < TASKS; i += 1)
      created.push(await client.createTask(session, `outage ${i}`));
    const platformIds = created.map((t) => t.platform_task_id ?? "");
    expect(platformIds.every((id) => id.startsWith("task_"))).toBe(true);
    await sleep(2_000);

    await proxy.refuse();
    const outageStarted = Date.now();
    expect((await client.request("/readyz")).status).toBe(503);
    const during = await client.request("/api/tasks", { session });
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ error: "database_unavailable" });
    expect(during.headers.get("retry-after")).toBe("5");
    await sleep(OUTAGE_MS - (Date.now() - outageStarted));
    const emittedDuringOutage = emu.control
      .listDeliveries()
      .filter((r) => r.createdAt >= outageStarted).length;
    await proxy.restore();

    await waitFor(
      "the backend to be ready again",
      async () => {
        return (await client.request("/readyz")).status === 200;
      },
      10_000,
    );
    await waitFor(
      "every task to finish and every delivery to end",
      () =>
        platformFinished(emu.control, platformIds) &&
        deliveriesPending(emu.control, platformIds) === 0,
      70_000,
    );

    const ledger = await readLedger(emu.control, database.database.db, platformIds);
    printLedger("postgres outage [pg]", ledger, {
      tasks: TASKS,
      outage_ms: OUTAGE_MS,
      emitted_during_outage: emittedDuringOutage,
      proxy_connections_accepted: proxy.accepted,
    });
    // The outage was felt (deliveries answered 503), and never as a 500.
    expect(ledger.answers["503"] ?? 0).toBeGreaterThan(0);
    expect(Object.keys(ledger.answers).filter((s) => s.startsWith("5") && s !== "503")).toEqual([]);
    expectBalanced(ledger);
    expectOutageLogged(live.logs, OUTAGE_MS);

    const tasks = await client.listTasks(session);
    for (const task of created) {
      const mine = tasks.find((t) => t.id === task.id);
      expect(mine?.status).toBe(emu.control.getTask(task.platform_task_id ?? "")?.status);
    }
    expect(
      await backwardMoves(
        database.database.db,
        created.map((t) => t.id),
      ),
    ).toEqual([]);
  }, 120_000);
});

/**
 * The outage as an operator reads it: one "database unavailable" when it starts, at most one
 * reminder every 10 s, one "database reachable again" at its end, and fewer warnings than
 * seconds in all (hundreds of requests and rounds failed meanwhile).
 */
function expectOutageLogged(logs: string[], outageMs: number): void {
  const lines = logs.map((line) => JSON.parse(line) as { level: number; msg: string });
  const said = (msg: string) => lines.filter((line) => line.msg === msg).length;
  const warnings = lines.filter((line) => line.level === 40);
  console.log(
    `[outage log] ${warnings.length} warnings: ${JSON.stringify(Object.fromEntries(warnings.map((w) => [w.msg, said(w.msg)])))}`,
  );
  expect(said("database unavailable")).toBe(1);
  expect(said("database still unavailable")).toBeLessThanOrEqual(outageMs / 10_000 + 1);
  expect(said("database reachable again")).toBe(1);
  expect(warnings.length).toBeLessThan(outageMs / 1_000);
}

/**
 * The same promise on embedded PGlite. It lives inside the process, so it cannot be stopped
 * separately: the outage is injected at the driver boundary (every statement fails with 57P01,
 * open transactions roll back), and the emulator runs in-process on the manual clock, so the
 * 20 s outage and the retry schedule cost no wall time.
 */
describe("the database failing for 20 s under webhook load [pglite, driver-level outage, in-process]", () => {
  const flaky = flakyPglite();
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({
      driver: "pglite",
      database: () => flaky.open(),
      emulator: { timing: SPREAD_TIMING },
    });
  });
  afterAll(() => t.close());

  it("answers 503 while the database fails, and after the platform's retries stores every event exactly once", async () => {
    const user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 1_000);
    const created = [];
    for (let i = 0; i < TASKS; i += 1)
      created.push(await createTask(t, user.session, { prompt: `outage ${i}` }));
    const platformIds = created.map((task) => task.platform_task_id ?? "");
    await t.emu.control.clock.advance(2_000);

    flaky.down();
    expect((await t.request("/readyz")).status).toBe(503);
    const during = await t.request(`/api/tasks/${created[0]?.id ?? ""}`, { session: user.session });
    expect(during.status).toBe(503);
    for (let ms = 0; ms < OUTAGE_MS; ms += 500) await t.emu.control.clock.advance(500);
    flaky.up();
    await t.emu.control.clock.advance(200_000);

    expect(platformFinished(t.emu.control, platformIds)).toBe(true);
    expect(deliveriesPending(t.emu.control, platformIds)).toBe(0);
    const ledger = await readLedger(t.emu.control, t.database.db, platformIds);
    printLedger("database outage [pglite]", ledger, {
      tasks: TASKS,
      statements_refused: flaky.refused,
    });
    expect(ledger.answers["503"] ?? 0).toBeGreaterThan(0);
    expect(Object.keys(ledger.answers).filter((s) => s.startsWith("5") && s !== "503")).toEqual([]);
    expectBalanced(ledger);
    // The outage log runs on the wall clock, which the manual clock does not move: the probe
    // needs a moment of real time after the database is back.
    await waitFor(
      "the outage's end to be logged",
      () => t.logs.some((line) => line.includes('"msg":"database reachable again"')),
      5_000,
      50,
    );
    expectOutageLogged(t.logs, OUTAGE_MS);
    for (const task of created) {
      const after = await getTask(t, user.session, task.id);
      expect(after.status).toBe(t.emu.control.getTask(task.platform_task_id ?? "")?.status);
    }
    expect(
      await backwardMoves(
        t.database.db,
        created.map((task) => task.id),
      ),
    ).toEqual([]);
  }, 60_000);
});
