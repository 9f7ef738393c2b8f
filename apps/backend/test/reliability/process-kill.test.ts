import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { openDatabase } from "../../src/db/open.ts";
import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { childBackend, type ChildBackend } from "../support/child-backend.ts";
import { createPostgresDatabase, type TestDatabase } from "../support/databases.ts";
import { describePg } from "../support/drivers.ts";
import { leakedIn, secretValues } from "../support/leaks.ts";
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
  startLiveEmulator,
  waitFor,
} from "../support/live.ts";

const TASKS = 30;
// Every kind of secret the scan must have looked for (so it cannot pass by looking for nothing).
const SCANNED_KINDS = [
  "webhook secret",
  "platform API token",
  "client secret",
  "access_token",
  "refresh_token",
  "encryption key",
];

interface Scenario {
  emu: RunningEmulator;
  child: ChildBackend;
  env: Record<string, string>;
}

/**
 * Creates tasks, lets their webhooks flow, SIGKILLs the backend in the middle of them (no
 * graceful shutdown: in-flight requests and commits die with it), starts it again and waits for
 * the platform's retries. Returns the tasks and their platform ids.
 */
async function killMidLoad({ emu, child, env }: Scenario) {
  const client = liveClient(child.url);
  const session = await client.signIn();
  await client.prepareTasks(session, emu);
  const created: TaskJson[] = [];
  for (let i = 0; i < TASKS; i += 1) created.push(await client.createTask(session, `kill ${i}`));
  const platformIds = created.map((t) => t.platform_task_id ?? "");
  await sleep(3_000);

  const before = emu.control.listDeliveries().length;
  const secrets = secretValues(emu.control, env);
  await child.kill("SIGKILL");
  const killedAt = Date.now();
  await sleep(2_000);
  await child.start();
  const restartMs = Date.now() - killedAt;

  await waitFor(
    "every task to finish and every delivery to end",
    () =>
      platformFinished(emu.control, platformIds) &&
      deliveriesPending(emu.control, platformIds) === 0,
    75_000,
  );
  const tasks = await client.listTasks(session);
  secretValues(emu.control, env, secrets);
  return {
    secrets,
    created,
    platformIds,
    tasks,
    facts: { tasks: TASKS, deliveries_before_kill: before, restart_ms: restartMs },
  };
}

async function expectNothingLost(
  title: string,
  { emu, child }: Scenario,
  db: Database,
  run: Awaited<ReturnType<typeof killMidLoad>>,
) {
  const ledger = await readLedger(emu.control, db.db, run.platformIds);
  printLedger(title, ledger, run.facts);
  // The kill was felt: attempts failed at the socket while the process was gone.
  expect(ledger.answers.network ?? 0).toBeGreaterThan(0);
  expectBalanced(ledger);
  for (const task of run.created) {
    const seen = run.tasks.find((t) => t.id === task.id);
    expect(seen?.status).toBe(emu.control.getTask(task.platform_task_id ?? "")?.status);
  }
  expect(
    await backwardMoves(
      db.db,
      run.created.map((t) => t.id),
    ),
  ).toEqual([]);
  // Nor did any secret reach the child's logs, across both of its lives.
  expect(new Set(run.secrets.values())).toEqual(new Set(SCANNED_KINDS));
  expect(leakedIn(child.lines, run.secrets)).toEqual([]);
}

describePg("the backend process SIGKILLed mid-load and restarted [pg, child process]", () => {
  let database: TestDatabase;
  let scenario: Scenario;
  beforeAll(async () => {
    database = await createPostgresDatabase();
    const port = await freePort();
    const emu = await startLiveEmulator(`http://127.0.0.1:${port}`, { timing: SPREAD_TIMING });
    const env = liveEnv(port, emu.url, { url: database.url ?? "" }, { LOG_LEVEL: "info" });
    scenario = { emu, child: childBackend(env), env };
    await scenario.child.start();
  });
  afterAll(async () => {
    await scenario.child.stop();
    await scenario.emu.close();
    await database.drop();
  });

  it("stores every event exactly once and ends every task in its true final state", async () => {
    const run = await killMidLoad(scenario);
    await expectNothingLost("process killed [pg]", scenario, database.database, run);
  }, 150_000);
});

describe("the backend process SIGKILLed mid-load and restarted [pglite data folder, child process]", () => {
  let dataDir: string;
  let scenario: Scenario;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "overture-kill-"));
    const port = await freePort();
    const emu = await startLiveEmulator(`http://127.0.0.1:${port}`, { timing: SPREAD_TIMING });
    const env = liveEnv(port, emu.url, { dataDir: join(dataDir, "pglite") }, { LOG_LEVEL: "info" });
    scenario = { emu, child: childBackend(env), env };
    await scenario.child.start();
  });
  afterAll(async () => {
    await scenario.child.stop();
    await scenario.emu.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("reopens its data folder and stores every event exactly once, every task in its true final state", async () => {
    const run = await killMidLoad(scenario);
    // PGlite's folder belongs to one process at a time: stop the backend, then read it here.
    await scenario.child.stop();
    const db = await openDatabase({ driver: "pglite", dataDir: join(dataDir, "pglite") });
    try {
      await expectNothingLost("process killed [pglite]", scenario, db, run);
    } finally {
      await db.close();
    }
  }, 150_000);
});
