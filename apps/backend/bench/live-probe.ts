// Item 4's live runs alone, with what explains their latency: builds side by side, rounds
// interleaved, one line per run with the measuring processes' own event-loop lag and CPU, each
// backend's CPU, event-loop lag and GC from /metrics, Postgres CPU and the intake's batch size.
// Not part of `pnpm bench`.
//
//   BENCH_COMPARE="base=dist-old-base/index.js,new=dist/index.js" BENCH_VARIANTS=one,two \
//   BENCH_ROUNDS=3 pnpm exec tsx bench/live-probe.ts
//   name=path;VAR=value… sets that backend's environment, ;@node=--flag one of its node options; BENCH_NODE_ARGS the backends' node
//   options; BENCH_TRACE_DIR=<dir> writes each run's events (key, sent, answered, arrived).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createPgDatabase, createPgTemplate } from "./lib/databases.ts";
import { liveWorkload, runLive } from "./lib/live-run.ts";
import { BACKEND_DIR, postgresCpuOf, startWorker } from "./lib/procs.ts";
import { startBackend, type Server } from "./lib/servers.ts";
import { fmt } from "./lib/stats.ts";
import { readSettings } from "./suites/settings.ts";

const settings = readSettings(console.log);
const builds = (process.env.BENCH_COMPARE ?? "current=dist/index.js").split(",").map((pair) => {
  const [spec = "", ...vars] = pair.split(";");
  const [name = "", path = ""] = spec.split("=");
  const pairs = vars.map((v): [string, string] => [
    v.slice(0, v.indexOf("=")),
    v.slice(v.indexOf("=") + 1),
  ]);
  // `@node=<flag>`: a node option of this build's backends (beside BENCH_NODE_ARGS).
  const env = Object.fromEntries(pairs.filter(([k]) => k !== "@node"));
  const node = pairs.filter(([k]) => k === "@node").map(([, v]) => v);
  return { name, path: resolve(BACKEND_DIR, path), env, node };
});
const variants = (process.env.BENCH_VARIANTS ?? "one,two").split(",") as ("one" | "two")[];
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
const traceDir = process.env.BENCH_TRACE_DIR;
const workload = liveWorkload(settings.liveClients);
const warmupMs = Math.max(
  settings.warmupMs,
  (1000 * settings.liveClients) / settings.liveRate + 2_000,
);

async function scrape(url: string): Promise<(name: string) => number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return (name: string) => {
    const escaped = name.replace(/[{}"]/g, (c) => `\\${c}`);
    return Number(new RegExp(`^${escaped} ([\\d.e+-]+)$`, "m").exec(text)?.[1] ?? 0);
  };
}

const lagOf = (l: { lagP99: number; lagMax: number; cpuPercent: number }) =>
  `lag p99 ${fmt(l.lagP99)} max ${fmt(l.lagMax)} cpu ${fmt(l.cpuPercent)}%`;

const template = await createPgTemplate(workload);
const workers = { clients: startWorker("sse-clients.ts"), sender: startWorker("live-sender.ts") };
await workers.sender.call("ready");
try {
  for (let round = 1; round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? builds : [...builds].reverse();
    for (const build of order) {
      for (const variant of variants) {
        const db = await createPgDatabase(template.name);
        const servers: Server[] = [];
        try {
          const start = () =>
            startBackend(
              { url: db.url },
              build.env,
              [...nodeArgs, ...build.node],
              undefined,
              build.path,
            );
          const a = await start();
          servers.push(a);
          const b = variant === "two" ? await start() : a;
          if (b !== a) servers.push(b);
          for (const s of servers) await scrape(s.url); // resets the lag histograms
          const name = new URL(db.url).pathname.slice(1);
          const pg0 = postgresCpuOf(name);
          const { result: r, events } = await runLive(workers, {
            ssePort: b.port,
            webhookPort: a.port,
            clients: settings.liveClients,
            tasks: workload.tasks,
            rate: settings.liveRate,
            warmupMs,
            durationMs: settings.liveMs,
            connections: settings.connections,
            run: `p${build.name}${variant}${round}`,
            watch: { pids: servers.map((s) => s.child.pid), database: name },
          });
          if (traceDir)
            writeFileSync(
              `${traceDir}/${build.name}-${variant}-${round}.json`,
              JSON.stringify(events),
            );
          const pgSeconds = postgresCpuOf(name) - pg0;
          const metrics = await Promise.all(servers.map((s) => scrape(s.url)));
          const m = metrics[0];
          const batch = m
            ? m("overture_webhook_commit_batch_size_sum") /
              m("overture_webhook_commit_batch_size_count")
            : Number.NaN;
          const backendLag = metrics
            .map(
              (read) =>
                `${fmt(read("nodejs_eventloop_lag_p99_seconds") * 1000)}/${fmt(read("nodejs_eventloop_lag_max_seconds") * 1000)}`,
            )
            .join(" ");
          const gc = metrics
            .map(
              (read) =>
                `${fmt(read('nodejs_gc_duration_seconds_sum{kind="minor"}') * 1000)} ms/${read('nodejs_gc_duration_seconds_count{kind="minor"}')}`,
            )
            .join(" ");
          const perSecond = r.measured / (settings.liveMs / 1000);
          const cpu = r.watched?.pids ?? [];
          console.log(
            `  backlog every 500 ms: ${r.backlog.join(" ")}; window after ${fmt(r.warmedUpMs)} ms, ${r.backlogAtWindow} waiting`,
          );
          console.log(
            `r${round} ${build.name.padEnd(8)} ${variant}: sse p50 ${fmt(r.latency.p50)} p99 ${fmt(r.latency.p99)}` +
              ` | 2xx p50 ${fmt(r.webhook.p50)} p99 ${fmt(r.webhook.p99)} | ${r.received}/${r.measured} waited p50 ${fmt(r.waited.p50)} p99 ${fmt(r.waited.p99)}` +
              ` | sender ${lagOf(r.sender)} | listener ${lagOf(r.listener)}` +
              ` | backend ${cpu.map((c) => fmt(c)).join("/")}% = ${cpu.map((c) => fmt((c * 1e4) / perSecond)).join("/")} µs/event` +
              `, lag p99/max ${backendLag} ms, scavenges ${gc} | pg ${fmt(r.watched?.postgres ?? 0)}% (run ${fmt(pgSeconds)} s) batch ${fmt(batch)}`,
          );
        } finally {
          for (const server of servers) await server.child.stop();
          await db.drop();
        }
      }
    }
  }
} finally {
  await Promise.all([workers.clients.stop(), workers.sender.stop()]);
  await template.drop();
}
