import { rmSync } from "node:fs";
import { join } from "node:path";
import { benchTmp, createPgDatabase } from "../lib/databases.ts";
import { BENCH_APP } from "../lib/emulator-server.ts";
import { freePort } from "../lib/procs.ts";
import { startBackend, type DatabaseTarget } from "../lib/servers.ts";
import { fmt, sleep } from "../lib/stats.ts";
import { MIN_SAMPLES, within, type Sample, type Window } from "./archiving-figures.ts";
import { SHORT_SECONDS, startLoad, type Load } from "./archiving-load.ts";
import { archivingPlatform, type PlatformTimes } from "./archiving-platform.ts";
import { prepareUser } from "./polling.ts";

const SECRET = "whsec_overture_bench_archiving_0123456789";
export const LONG_SECONDS = 240;
/** The load alone before the first (warm-up) archive. */
export const WARMUP_MS = 3_000;
/** After an archive and the read of its WAV, left out of every window: whatever trails it. */
export const SETTLE_MS = 1_000;
/**
 * Archives measured a driver: at least MIN, then more until every metric has MIN_SAMPLES on each
 * side, up to MAX, and none begun once the budget (BENCH_ARCHIVE_SECONDS from the backend's
 * start) is spent. The rule looks at sample counts only, never at the latencies, so stopping
 * cannot favour a verdict.
 */
export const CYCLES = { min: 3, max: 10 };

/** The warm-up's result: short, so it is made on request by the emulator, during the warm-up. */
export const WARM_UP_SECONDS = 60;
/** A task archived after this long has stalled: the run fails, saying where it stood. */
const ARCHIVED_WITHIN_MS = 180_000;

/** One archive (the measured window) and the stretch of plain load just before it. */
export interface Cycle {
  reference: Window;
  archive: Window;
  readMs: number;
  /** The part of the reference window before the long task was submitted. */
  aloneMs: number;
}

export interface DriverRun {
  driver: "pglite" | "pg";
  me: Sample[];
  webhooks: Sample[];
  live: Sample[];
  cycles: Cycle[];
  failedRequests: number;
  skippedRequests: number;
}

async function waitFor<T>(what: () => string, check: () => T | undefined, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await sleep(20);
  }
}

/** Submits a task whose file is audio and waits until it reads `archived`: its answer and when. */
async function archived(load: Load, longTasks: Set<string>, kind: "long" | "warm-up", n: number) {
  const long = kind === "long";
  const submitted = await load.submit(long ? LONG_SECONDS : WARM_UP_SECONDS, `the ${kind} ${n}`);
  const known = (id: string | null) => {
    if (long && id) longTasks.add(id);
  };
  known(submitted.platform_task_id);
  load.follow(submitted.id);
  const describe = () => {
    const task = load.latest()?.task;
    return `${kind} result ${n} archived (last read: ${task?.status ?? "none"}, archive ${task?.archive?.status ?? "none"})`;
  };
  return waitFor(
    describe,
    () => {
      const latest = load.latest();
      // The submit's answer may come before the platform's id is known; the task's reads bring it.
      known(latest?.task.platform_task_id ?? null);
      if (latest?.task.archive?.status === "failed")
        throw new Error(`archiving the ${describe()} failed: ${latest.task.archive.error ?? "?"}`);
      return latest?.task.archive?.status === "archived" ? latest : undefined;
    },
    ARCHIVED_WITHIN_MS,
  );
}

/**
 * One cycle: the plain load, then a long task submitted that runs on the platform and waits for
 * the archiver (together the reference window), then its archive from the first request for its
 * file to the task reading `archived` (the measured window), then a timed read of the same WAV.
 * The load runs alone for `aloneMs` before the submit, so that the reference window lasts about
 * as long as an archive and both sides gather samples alike.
 */
async function cycle(
  load: Load,
  longTasks: Set<string>,
  times: PlatformTimes,
  n: number,
  aloneMs: number,
) {
  const from = performance.now();
  await sleep(aloneMs);
  const { task, at } = await archived(load, longTasks, "long", n);
  const url = task.file_url ?? "";
  const fileAt = times.fileRequests.get(new URL(url).pathname) ?? at;
  const readStarted = performance.now();
  await (await fetch(url)).arrayBuffer();
  const readMs = performance.now() - readStarted;
  await sleep(SETTLE_MS);
  return { reference: [from, fileAt], archive: [fileAt, at], readMs, aloneMs } satisfies Cycle;
}

/**
 * How long the load runs alone before the next submit: the last archive's length, less the wait
 * the platform and the archiver added before it began (the first cycle has no such wait).
 */
function aloneBefore(last: Cycle | undefined): number {
  if (!last) return 0;
  const archiveMs = last.archive[1] - last.archive[0];
  const waitMs = last.reference[1] - last.reference[0] - last.aloneMs;
  return Math.max(0, archiveMs - waitMs);
}

const enough = (run: DriverRun) =>
  [run.me, run.webhooks, run.live].every((samples) =>
    (["reference", "archive"] as const).every(
      (side) =>
        within(
          samples,
          run.cycles.map((c) => c[side]),
        ).length >= MIN_SAMPLES,
    ),
  );

export async function runOn(
  driver: DriverRun["driver"],
  wav: ArrayBuffer,
  budgetMs: number,
  log: (m: string) => void,
): Promise<DriverRun> {
  const pg = driver === "pg" ? await createPgDatabase() : undefined;
  const folder = driver === "pglite" ? benchTmp("archiving") : undefined;
  const database: DatabaseTarget = pg ? { url: pg.url } : { dir: join(folder ?? "", "pglite") };
  const [backendPort, emulatorPort] = [await freePort(), await freePort()];
  const backendUrl = `http://127.0.0.1:${backendPort}`;
  const times: PlatformTimes = {
    webhooks: [],
    sent: new Map(),
    fileRequests: new Map(),
    successes: 0,
  };
  const longTasks = new Set<string>();
  const platform = archivingPlatform({
    port: emulatorPort,
    backendUrl,
    secret: SECRET,
    longSeconds: LONG_SECONDS,
    loadSeconds: SHORT_SECONDS,
    longTasks,
    wav,
    times,
  });
  let backend: Awaited<ReturnType<typeof startBackend>> | undefined;
  let load: Load | undefined;
  const started = performance.now();
  try {
    backend = await startBackend(
      database,
      {
        PLATFORM_BASE_URL: `http://127.0.0.1:${emulatorPort}`,
        PLATFORM_CLIENT_ID: BENCH_APP.client_id,
        PLATFORM_CLIENT_SECRET: BENCH_APP.client_secret,
        ARCHIVE_STORAGE: "postgres",
      },
      [],
      backendPort,
    );
    const session = await prepareUser(backendUrl, "demo", "demo", SECRET);
    load = await startLoad(backendUrl, session, times);
    const run: DriverRun = {
      driver,
      me: load.me,
      webhooks: times.webhooks,
      live: load.live,
      cycles: [],
      failedRequests: 0,
      skippedRequests: 0,
    };
    await sleep(WARMUP_MS);
    // A short result archived first, not counted: the archive path's first run (its code loaded
    // and compiled) is a start-up cost, not what archiving costs the others.
    await archived(load, longTasks, "warm-up", 0);
    while (run.cycles.length < CYCLES.max) {
      const n = run.cycles.length + 1;
      const done = await cycle(load, longTasks, times, n, aloneBefore(run.cycles.at(-1)));
      run.cycles.push(done);
      log(
        `  ${driver}: archive ${run.cycles.length} took ${fmt(done.archive[1] - done.archive[0])} ms, ` +
          `after ${fmt(done.archive[0] - done.reference[0])} ms of the load alone`,
      );
      if (run.cycles.length >= CYCLES.min && enough(run)) break;
      if (performance.now() - started > budgetMs) break;
    }
    await load.stop();
    if (times.successes > run.cycles.length + 1)
      throw new Error(
        `${times.successes - run.cycles.length - 1} of the load's tasks succeeded on the platform: ` +
          "the emulator no longer plans a task with the failure rate set as it is submitted",
      );
    run.failedRequests = load.failed();
    run.skippedRequests = load.skipped();
    load = undefined;
    return run;
  } catch (error) {
    const output = backend?.child.output().slice(-1_500) ?? "";
    throw new Error(`${driver}: ${String(error)}\nthe backend's last output:\n${output}`, {
      cause: error,
    });
  } finally {
    await load?.stop();
    await backend?.child.stop();
    await platform.close();
    await pg?.drop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}
