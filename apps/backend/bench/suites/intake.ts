import type { DbLoopRequest, DbLoopResult } from "../workers/db-loop.ts";
import type { MinimalRequest, MinimalResult } from "../workers/db-minimal.ts";
import type { LoadRequest, LoadResult } from "../workers/webhook-load.ts";
import {
  copyPglite,
  createPgDatabase,
  createPgliteTemplate,
  createPgTemplate,
  queryOnce,
  type Workload,
} from "../lib/databases.ts";
import { cpuTimes, idleShare } from "../lib/machine.ts";
import { IDLE_BEFORE_LOAD_MS, startNaive } from "../lib/naive.ts";
import { hasPgbench, runPgbench } from "../lib/pgbench.ts";
import { platformTaskIdOf } from "../lib/plan.ts";
import { startWorker, type Worker } from "../lib/procs.ts";
import type { Section } from "../lib/report.ts";
import { startBackend, startReference, type DatabaseTarget } from "../lib/servers.ts";
import { fmt, sleep } from "../lib/stats.ts";
import { dupSection, intakeSection, type Driver, type IntakeResults } from "./intake-report.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Items 1 and 2 of the benchmarks issue: webhook intake at 50 keep-alive connections against the
 * built backend, beside references measured in the same rounds: (a) a bare Hono handler, (c) and
 * (c+) a naive handler doing the same durable work one transaction per event, the minimal
 * insert + update transaction from a Node pool and from pgbench at 8 and 32 clients, and (b) the
 * intake's own statements one event per transaction. Each round runs every variant in a rotated
 * order, so load on the shared machine hits them alike; figures are medians over rounds.
 */
const WORKLOAD: Workload = { users: 100, tasks: 20_001 };
export const EVENT_TASKS = 20_000; // task 20 000 is the duplicate storm's
const DUP_TASK = platformTaskIdOf(EVENT_TASKS);
export const OPEN_LOOP_FACTOR = 1.3;
export const POOL_CLIENTS = [8, 32] as const;

/** Closed-loop load of distinct events (event k moves task k mod 20 000) against `port`. */
function distinctLoad(port: number, settings: BenchSettings, run: string): LoadRequest {
  return {
    port,
    connections: settings.connections,
    warmupMs: settings.warmupMs,
    durationMs: settings.durationMs,
    run,
    users: WORKLOAD.users,
    tasks: EVENT_TASKS,
    mode: "distinct",
  };
}

/** Batch size and transactions/s from the backend's own histogram, over one load run. */
async function batchMetrics(url: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^${name} ([\\d.e+]+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return {
    sum: read("overture_webhook_commit_batch_size_sum"),
    count: read("overture_webhook_commit_batch_size_count"),
  };
}

/** A load run with the machine's CPU idle share and the intake's batches during it. */
async function measuredLoad(load: Worker, request: LoadRequest, backendUrl: string) {
  const metricsBefore = await batchMetrics(backendUrl);
  const cpuBefore = cpuTimes();
  const started = performance.now();
  const result = await load.call<LoadResult>("run", request);
  const seconds = (performance.now() - started) / 1000;
  const cpuIdle = idleShare(cpuBefore, cpuTimes());
  const metricsAfter = await batchMetrics(backendUrl);
  const batches = metricsAfter.count - metricsBefore.count;
  return {
    load: result,
    cpuIdle: cpuIdle ?? Number.NaN,
    batchSize: (metricsAfter.sum - metricsBefore.sum) / batches,
    transactionsPerSecond: batches / seconds,
  };
}

export async function intakeSuite(settings: BenchSettings): Promise<Section[]> {
  const pgTemplate = await createPgTemplate(WORKLOAD);
  const pgliteTemplate = await createPgliteTemplate(WORKLOAD);
  // Every worker is started and has loaded its modules before the first measured window.
  const load = startWorker("webhook-load.ts");
  const loop = startWorker("db-loop.ts");
  const minimal = startWorker("db-minimal.ts");
  await Promise.all([load, loop, minimal].map((w) => w.call("ready")));
  const pgbench = hasPgbench();
  const results: IntakeResults = {
    bare: [],
    intake: { pg: [], pglite: [] },
    refs: { pg: [], pglite: [] },
    open: { pg: [], pglite: [] },
    naive: [],
    naivePlus: [],
    pool: { 8: [], 32: [] },
    pgbench: { 8: [], 32: [] },
    hasPgbench: pgbench,
  };

  async function fresh<T>(driver: Driver, fn: (target: DatabaseTarget) => Promise<T>): Promise<T> {
    if (driver === "pg") {
      const db = await createPgDatabase(pgTemplate.name);
      try {
        return await fn({ url: db.url });
      } finally {
        await db.drop();
      }
    }
    const copy = copyPglite(pgliteTemplate);
    try {
      return await fn({ dir: copy.dir });
    } finally {
      copy.drop();
    }
  }
  const freshPg = <T>(fn: (url: string) => Promise<T>) =>
    fresh("pg", (t) => fn("url" in t ? t.url : ""));

  async function intakeRun(driver: Driver, target: DatabaseTarget, run: string) {
    const backend = await startBackend(target);
    try {
      await sleep(IDLE_BEFORE_LOAD_MS);
      const request = distinctLoad(backend.port, settings, run);
      const measured = await measuredLoad(load, request, backend.url);
      // Every 2xx must already be committed: count before anything else happens (pg only: PGlite
      // is owned by the backend process until it stops).
      const storedWhileRunning = driver === "pg" ? await countEvents(target, run) : undefined;
      const dup = await load.call<LoadResult>("run", {
        ...request,
        warmupMs: 0,
        durationMs: settings.dupMs,
        mode: "duplicate",
      });
      await backend.child.stop();
      const stored = await countEvents(target, run);
      const [dupRow] = await queryOnce<{ events: string; task_events: string }>(
        target,
        `select (select count(*) from webhook_events where event_id = $1) as events,
                (select count(*) from task_events e join tasks t on t.id = e.task_id
                  where t.platform_task_id = $2) as task_events`,
        [`evt_${run}_dup`, DUP_TASK],
      );
      return {
        ...measured,
        dup,
        stored,
        ...(storedWhileRunning === undefined ? {} : { storedWhileRunning }),
        dupStored: Number(dupRow?.events ?? -1),
        dupTaskEvents: Number(dupRow?.task_events ?? -1),
      };
    } finally {
      await backend.child.stop();
    }
  }

  async function openLoopRun(target: DatabaseTarget, run: string, ratePerSecond: number) {
    const backend = await startBackend(target);
    try {
      await sleep(IDLE_BEFORE_LOAD_MS);
      const request = { ...distinctLoad(backend.port, settings, run), ratePerSecond };
      const measured = await measuredLoad(load, request, backend.url);
      await backend.child.stop();
      return { ...measured, rate: ratePerSecond, stored: await countEvents(target, run) };
    } finally {
      await backend.child.stop();
    }
  }

  async function refRun(target: DatabaseTarget, run: string) {
    const request: DbLoopRequest = {
      target,
      concurrency: settings.connections,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
      run,
      tasks: EVENT_TASKS,
    };
    const result = await loop.call<DbLoopResult>("run", request);
    return { result, stored: await countEvents(target, run) };
  }

  async function naiveRun(url: string, withTaskEvent: boolean, run: string) {
    const server = await startNaive(url, WORKLOAD.users, withTaskEvent);
    try {
      const result = await load.call<LoadResult>("run", distinctLoad(server.port, settings, run));
      return { load: result, stored: await countEvents({ url }, run) };
    } finally {
      await server.child.stop();
    }
  }

  const poolRun = (url: string, clients: number, run: string) =>
    minimal.call<MinimalResult>("run", {
      url,
      clients,
      warmupMs: settings.warmupMs,
      durationMs: settings.durationMs,
      run,
      tasks: EVENT_TASKS,
    } satisfies MinimalRequest);

  try {
    for (let round = 1; round <= settings.rounds; round++) {
      const reference = await startReference("hono");
      try {
        await sleep(IDLE_BEFORE_LOAD_MS);
        results.bare.push(
          await load.call<LoadResult>("run", distinctLoad(reference.port, settings, `a${round}`)),
        );
      } finally {
        await reference.child.stop();
      }
      const r = `${round}`;
      const pgSteps: (() => Promise<unknown>)[] = [
        async () => results.intake.pg.push(await fresh("pg", (t) => intakeRun("pg", t, `ipg${r}`))),
        async () => results.refs.pg.push(await fresh("pg", (t) => refRun(t, `bpg${r}`))),
        async () => results.naive.push(await freshPg((u) => naiveRun(u, false, `c${r}`))),
        async () => results.naivePlus.push(await freshPg((u) => naiveRun(u, true, `cp${r}`))),
        ...POOL_CLIENTS.map(
          (n) => async () => results.pool[n].push(await freshPg((u) => poolRun(u, n, `m${n}${r}`))),
        ),
        ...(pgbench
          ? POOL_CLIENTS.map(
              (n) => async () =>
                results.pgbench[n].push(
                  await freshPg((u) =>
                    runPgbench(
                      u,
                      n,
                      Math.round(settings.durationMs / 1000),
                      `g${n}${r}`,
                      EVENT_TASKS,
                    ),
                  ),
                ),
            )
          : []),
      ];
      const pgliteSteps = [
        async () =>
          results.intake.pglite.push(
            await fresh("pglite", (t) => intakeRun("pglite", t, `ipglite${r}`)),
          ),
        async () =>
          results.refs.pglite.push(await fresh("pglite", (t) => refRun(t, `bpglite${r}`))),
      ];
      // Rotate the order every round: no variant always runs first or right after another.
      const rotate = <T>(steps: T[]) => [
        ...steps.slice((round - 1) % steps.length),
        ...steps.slice(0, (round - 1) % steps.length),
      ];
      for (const step of rotate(pgSteps)) await step();
      for (const step of rotate(pgliteSteps)) await step();
      // Then the target's question: offered 1.3× what the naive handler (c) answers (PGlite:
      // 1.3× its (b)), how fast is each event answered?
      // A reference that measured nothing leaves nothing to offer: that round has no open loop.
      const pgOffered = OPEN_LOOP_FACTOR * (results.naive.at(-1)?.load.perSecond ?? 0);
      if (pgOffered > 0)
        results.open.pg.push(await fresh("pg", (t) => openLoopRun(t, `opg${r}`, pgOffered)));
      const pgliteOffered = OPEN_LOOP_FACTOR * (results.refs.pglite.at(-1)?.result.perSecond ?? 0);
      if (pgliteOffered > 0) {
        results.open.pglite.push(
          await fresh("pglite", (t) => openLoopRun(t, `opglite${r}`, pgliteOffered)),
        );
      }
      const last = results.intake.pg.at(-1);
      settings.log(
        `  round ${round}: pg intake ${fmt(last?.load.perSecond ?? 0)}/s p99 ${fmt(last?.load.latency.p99 ?? 0)} ms ` +
          `(batch ${fmt(last?.batchSize ?? 0)}, ${fmt(last?.transactionsPerSecond ?? 0)} tx/s, idle ${fmt(last?.cpuIdle ?? 0)} %), ` +
          `(c) ${fmt(results.naive.at(-1)?.load.perSecond ?? 0)}/s, (c+) ${fmt(results.naivePlus.at(-1)?.load.perSecond ?? 0)}/s, ` +
          `pool8 ${fmt(results.pool[8].at(-1)?.perSecond ?? 0)}/s, pgbench8 ${fmt(results.pgbench[8].at(-1)?.perSecond ?? 0)}/s, ` +
          `open answered ${fmt(results.open.pg.at(-1)?.load.openLoop?.answeredPerSecond ?? 0)}/s of ${fmt(results.open.pg.at(-1)?.rate ?? 0)}/s p99 ${fmt(results.open.pg.at(-1)?.load.latency.p99 ?? 0)} ms; ` +
          `pglite intake ${fmt(results.intake.pglite.at(-1)?.load.perSecond ?? 0)}/s, (b) ${fmt(results.refs.pglite.at(-1)?.result.perSecond ?? 0)}/s`,
      );
    }
  } finally {
    await load.stop();
    await loop.stop();
    await minimal.stop();
    await pgTemplate.drop();
  }
  return [intakeSection(results, settings), dupSection(results.intake, settings)];
}

async function countEvents(target: DatabaseTarget, run: string): Promise<number> {
  const [row] = await queryOnce<{ n: string }>(
    target,
    "select count(*) as n from webhook_events where event_id like $1 and event_id <> $2",
    [`evt_${run}_%`, `evt_${run}_dup`],
  );
  return Number(row?.n ?? -1);
}
