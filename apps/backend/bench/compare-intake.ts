// Two builds of the backend side by side on Postgres (for trying a change of the intake before
// `pnpm bench`): closed-loop and open-loop intake runs interleaved round by round, with the naive
// reference (c) in each round. Not part of `pnpm bench`; prints one line per run.
//
//   cp -r dist dist-old-base   (before the change; dist-old-* and dist-next-* are git- and lint-ignored)
//   BENCH_COMPARE="base=dist-old-base/index.js,new=dist/index.js" \
//   BENCH_RATE=1500 BENCH_ROUNDS=3 pnpm exec tsx bench/compare-intake.ts
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" … (node options of every backend, e.g. a
//   CPU profile written when it stops; --cpu-prof is refused in NODE_OPTIONS)
//   BENCH_OPEN_ONLY=1 with BENCH_RATE: only the open-loop runs (no (c), no closed loop), so more
//   rounds of the tail latency fit in the same time
//   BENCH_TIMELINE=1 with BENCH_RATE: after the runs, a line per open-loop run on where its
//   deliveries over the p99 were: beside event-loop stalls of the backend or of the load
//   generator, or a GC (bench/lib/stall-probe.mjs in both; it adds a 2 ms timer to each)
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { LoadRequest, LoadResult } from "./workers/webhook-load.ts";
import { createPgDatabase, createPgTemplate } from "./lib/databases.ts";
import { cpuTimes, idleShare } from "./lib/machine.ts";
import { IDLE_BEFORE_LOAD_MS, startNaive } from "./lib/naive.ts";
import {
  BACKEND_DIR,
  cpuSecondsOf,
  cpuSplitOf,
  postgresCpuOf as postgresCpu,
  startWorker,
} from "./lib/procs.ts";
import { startBackend } from "./lib/servers.ts";
import { fmt, sleep } from "./lib/stats.ts";
import { describeTimeline, readProbe } from "./lib/timeline.ts";
import { readSettings } from "./suites/settings.ts";
import { EVENT_TASKS } from "./suites/intake.ts";

const settings = readSettings(console.log);
const builds = (process.env.BENCH_COMPARE ?? "current=dist/index.js").split(",").map((pair) => {
  // name=path[;VAR=value…]: environment of that backend (experiment switches).
  const [spec = "", ...vars] = pair.split(";");
  const [name = "", path = ""] = spec.split("=");
  const env = Object.fromEntries(
    vars.map((v) => [v.slice(0, v.indexOf("=")), v.slice(v.indexOf("=") + 1)] as const),
  );
  return { name, path: resolve(BACKEND_DIR, path), env };
});
const rate = Number(process.env.BENCH_RATE ?? 0);
const openOnly = rate > 0 && process.env.BENCH_OPEN_ONLY === "1";
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
const timelineDir =
  rate > 0 && process.env.BENCH_TIMELINE === "1"
    ? mkdtempSync(join(tmpdir(), "overture-timeline-"))
    : undefined;
/** The stall probe's record file, environment and node arguments for one process. */
const probe = (name: string) => {
  if (!timelineDir) return { path: "", env: {}, args: [] };
  const path = join(timelineDir, name);
  const preload = pathToFileURL(resolve(import.meta.dirname, "lib/stall-probe.mjs")).href;
  return { path, env: { OVERTURE_STALL_PROBE_OUT: path }, args: ["--import", preload] };
};
/** The open-loop runs to describe once the load generator has exited (and written its record). */
const timelines: { label: string; deliveries: [number, number][]; probe: string }[] = [];
const template = await createPgTemplate({ users: 100, tasks: EVENT_TASKS + 1 });
const loadProbe = probe("load.json");
const load = startWorker("webhook-load.ts", loadProbe.env, loadProbe.args);
await load.call("ready");

const request = (port: number, run: string, ratePerSecond?: number): LoadRequest => ({
  port,
  connections: settings.connections,
  warmupMs: settings.warmupMs,
  durationMs: settings.durationMs,
  run,
  users: 100,
  tasks: EVENT_TASKS,
  mode: "distinct",
  ...(ratePerSecond ? { ratePerSecond, timeline: timelineDir !== undefined } : {}),
});

async function batches(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (n: string) => Number(new RegExp(`^${n} ([\\d.e+]+)$`, "m").exec(text)?.[1] ?? 0);
  return [
    read("overture_webhook_commit_batch_size_sum"),
    read("overture_webhook_commit_batch_size_count"),
  ];
}

const line = (label: string, r: LoadResult, extra = "") => {
  console.log(
    `${label.padEnd(22)} ${fmt(r.perSecond).padStart(6)}/s p50 ${fmt(r.latency.p50)} p99 ${fmt(r.latency.p99)} ms` +
      ` non-2xx ${
        r.errors +
        Object.entries(r.statuses)
          .filter(([s]) => !s.startsWith("2"))
          .reduce((a, [, n]) => a + n, 0)
      } ${extra}`,
  );
};

try {
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? builds : [...builds].reverse();
    if (!openOnly) {
      const db = await createPgDatabase(template.name);
      const naive = await startNaive(db.url, 100, false);
      const name = new URL(db.url).pathname.slice(1);
      const [own0, pg0, load0] = [
        cpuSecondsOf(naive.child.pid),
        postgresCpu(name),
        cpuSecondsOf(load.pid),
      ];
      const result = await load.call<LoadResult>("run", request(naive.port, `c${round}`));
      const events = Object.values(result.statuses).reduce((a, n) => a + n, 0);
      const perEvent = (seconds: number) => fmt((seconds * 1e6) / events);
      line(
        `r${round} (c)`,
        result,
        `CPU/event: server ${perEvent(cpuSecondsOf(naive.child.pid) - own0)} µs, postgres ${perEvent(postgresCpu(name) - pg0)} µs, load generator ${perEvent(cpuSecondsOf(load.pid) - load0)} µs`,
      );
      await naive.child.stop();
      await db.drop();
    }
    for (const build of order) {
      const rates = openOnly ? [rate] : rate > 0 ? [undefined, rate] : [undefined];
      for (const offered of rates) {
        const db = await createPgDatabase(template.name);
        const run = `${build.name}${round}${offered ? "o" : ""}`;
        const backendProbe = probe(`${run}.json`);
        const backend = await startBackend(
          { url: db.url },
          { ...build.env, ...(offered ? backendProbe.env : {}) },
          [...nodeArgs, ...(offered ? backendProbe.args : [])],
          undefined,
          build.path,
        );
        await sleep(IDLE_BEFORE_LOAD_MS);
        const [s0 = 0, c0 = 0] = await batches(backend.url);
        const cpu = cpuTimes();
        const name = new URL(db.url).pathname.slice(1);
        const own0 = cpuSplitOf(backend.child.pid);
        const load0 = cpuSecondsOf(load.pid);
        const pg0 = postgresCpu(name);
        const result = await load.call<LoadResult>("run", request(backend.port, run, offered));
        const idle = idleShare(cpu, cpuTimes()) ?? Number.NaN;
        const events = Object.values(result.statuses).reduce((a, n) => a + n, 0);
        const own1 = cpuSplitOf(backend.child.pid);
        const perEvent = (seconds: number) => (seconds * 1e6) / events;
        const ownUs = perEvent(own1.user + own1.kernel - own0.user - own0.kernel);
        const kernelShare =
          (100 * (own1.kernel - own0.kernel)) / (own1.user + own1.kernel - own0.user - own0.kernel);
        const loadUs = perEvent(cpuSecondsOf(load.pid) - load0);
        const pgUs = perEvent(postgresCpu(name) - pg0);
        const [s1 = 0, c1 = 0] = await batches(backend.url);
        const seconds = (settings.warmupMs + settings.durationMs) / 1000;
        const label = `r${round} ${build.name}${offered ? ` @${offered}/s` : ""}`;
        if (timelineDir && result.deliveries)
          timelines.push({
            label,
            deliveries: result.deliveries,
            probe: backendProbe.path,
          });
        line(
          label,
          result,
          `${
            offered && result.openLoop
              ? `answered ${fmt(result.openLoop.answeredPerSecond)}/s backlog ${result.openLoop.backlogAtStart}→${result.openLoop.backlogAtEnd} `
              : ""
          }batch ${fmt((s1 - s0) / (c1 - c0))} tx/s ${fmt((c1 - c0) / seconds)} idle ${fmt(idle)} % CPU/event: server ${fmt(ownUs)} µs (kernel ${fmt(kernelShare)} %), postgres ${fmt(pgUs)} µs, load generator ${fmt(loadUs)} µs`,
        );
        await backend.child.stop();
        await db.drop();
      }
    }
  }
} finally {
  await load.stop();
  await template.drop();
}
if (timelineDir) {
  const loadRecord = readProbe(loadProbe.path);
  for (const { label, deliveries, probe: path } of timelines)
    console.log(`${label} timeline: ${describeTimeline(deliveries, readProbe(path), loadRecord)}`);
}
