import type { DbLoopRequest, DbLoopResult } from "../workers/db-loop.ts";
import type { LoadRequest, LoadResult } from "../workers/webhook-load.ts";
import {
  copyPglite,
  createPgDatabase,
  createPgliteTemplate,
  createPgTemplate,
  queryOnce,
  type Workload,
} from "../lib/databases.ts";
import { platformTaskIdOf } from "../lib/plan.ts";
import { startWorker, type Worker } from "../lib/procs.ts";
import { figure, type Section } from "../lib/report.ts";
import { startBackend, startReference, type DatabaseTarget } from "../lib/servers.ts";
import { fmt, median } from "../lib/stats.ts";
import type { BenchSettings } from "./settings.ts";

/**
 * Items 1 and 2 of the benchmarks issue: webhook intake at 50 keep-alive connections against the
 * built backend, beside (a) a bare Hono handler on the same server stack and (b) the database's
 * own limit for the same statements, one transaction per event; then a duplicate storm. Rounds
 * interleave every variant, so load on the shared machine hits them alike; figures are medians.
 */
const WORKLOAD: Workload = { users: 100, tasks: 20_001 };
const EVENT_TASKS = 20_000; // task 20 000 is the duplicate storm's
const DUP_TASK = platformTaskIdOf(EVENT_TASKS);
const OPEN_LOOP_FACTOR = 1.3;

type Driver = "pg" | "pglite";

interface IntakeRun {
  load: LoadResult;
  dup: LoadResult;
  /** webhook_events rows of the distinct run, counted while the backend still ran (pg) or after. */
  stored: number;
  storedWhileRunning?: number;
  dupStored: number;
  dupTaskEvents: number;
}

interface OpenLoopRun {
  load: LoadResult;
  /** Offered events/s: 1.3 × reference (b) of the same round. */
  rate: number;
  stored: number;
}

interface RefRun {
  result: DbLoopResult;
  stored: number;
}

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

async function intakeRun(
  driver: Driver,
  target: DatabaseTarget,
  load: Worker,
  settings: BenchSettings,
  run: string,
): Promise<IntakeRun> {
  const backend = await startBackend(target);
  try {
    const request = distinctLoad(backend.port, settings, run);
    const result = await load.call<LoadResult>("run", request);
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
      load: result,
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

/** The same intake at a fixed offered rate (open loop), on a fresh copy of the database. */
async function openLoopRun(
  target: DatabaseTarget,
  load: Worker,
  settings: BenchSettings,
  run: string,
  ratePerSecond: number,
): Promise<OpenLoopRun> {
  const backend = await startBackend(target);
  try {
    const result = await load.call<LoadResult>("run", {
      ...distinctLoad(backend.port, settings, run),
      ratePerSecond,
    } satisfies LoadRequest);
    await backend.child.stop();
    return { load: result, rate: ratePerSecond, stored: await countEvents(target, run) };
  } finally {
    await backend.child.stop();
  }
}

async function countEvents(target: DatabaseTarget, run: string): Promise<number> {
  const [row] = await queryOnce<{ n: string }>(
    target,
    "select count(*) as n from webhook_events where event_id like $1 and event_id <> $2",
    [`evt_${run}_%`, `evt_${run}_dup`],
  );
  return Number(row?.n ?? -1);
}

async function refRun(
  target: DatabaseTarget,
  loop: Worker,
  settings: BenchSettings,
  run: string,
): Promise<RefRun> {
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

export async function intakeSuite(settings: BenchSettings): Promise<Section[]> {
  const pgTemplate = await createPgTemplate(WORKLOAD);
  const pgliteTemplate = await createPgliteTemplate(WORKLOAD);
  const load = startWorker("webhook-load.ts");
  const loop = startWorker("db-loop.ts");
  const bare: LoadResult[] = [];
  const intake: Record<Driver, IntakeRun[]> = { pg: [], pglite: [] };
  const refs: Record<Driver, RefRun[]> = { pg: [], pglite: [] };
  const open: Record<Driver, OpenLoopRun[]> = { pg: [], pglite: [] };

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

  try {
    for (let round = 1; round <= settings.rounds; round++) {
      const reference = await startReference("hono");
      try {
        bare.push(
          await load.call<LoadResult>("run", distinctLoad(reference.port, settings, `a${round}`)),
        );
      } finally {
        await reference.child.stop();
      }
      const drivers: Driver[] = round % 2 === 1 ? ["pg", "pglite"] : ["pglite", "pg"];
      for (const driver of drivers) {
        // Alternate which of intake and reference (b) goes first.
        const steps = [
          async () =>
            intake[driver].push(
              await fresh(driver, (t) =>
                intakeRun(driver, t, load, settings, `i${driver}${round}`),
              ),
            ),
          async () =>
            refs[driver].push(
              await fresh(driver, (t) => refRun(t, loop, settings, `b${driver}${round}`)),
            ),
        ];
        if (round % 2 === 0) steps.reverse();
        for (const step of steps) await step();
        // Then the target's own question: at 1.3× what one transaction per event reaches, how
        // fast is each event answered?
        const offered = OPEN_LOOP_FACTOR * (refs[driver].at(-1)?.result.perSecond ?? 0);
        open[driver].push(
          await fresh(driver, (t) => openLoopRun(t, load, settings, `o${driver}${round}`, offered)),
        );
        const last = intake[driver].at(-1);
        const lastRef = refs[driver].at(-1);
        settings.log(
          `  round ${round} ${driver}: intake ${fmt(last?.load.perSecond ?? 0)}/s p99 ${fmt(last?.load.latency.p99 ?? 0)} ms, ` +
            `ref(b) ${fmt(lastRef?.result.perSecond ?? 0)}/s, bare ${fmt(bare.at(-1)?.perSecond ?? 0)}/s`,
        );
      }
    }
  } finally {
    await load.stop();
    await loop.stop();
    await pgTemplate.drop();
  }
  return [intakeSection(bare, intake, refs, open, settings), dupSection(intake, settings)];
}

const NAMES: Record<Driver, string> = { pg: "Postgres", pglite: "PGlite" };

function intakeSection(
  bare: LoadResult[],
  intake: Record<Driver, IntakeRun[]>,
  refs: Record<Driver, RefRun[]>,
  open: Record<Driver, OpenLoopRun[]>,
  settings: BenchSettings,
): Section {
  const bareRate = median(bare.map((b) => b.perSecond));
  const figures = (["pg", "pglite"] as const).flatMap((driver) => {
    const runs = intake[driver];
    const rate = median(runs.map((r) => r.load.perSecond));
    const refRate = median(refs[driver].map((r) => r.result.perSecond));
    const p50 = median(runs.map((r) => r.load.latency.p50));
    const p99 = median(runs.map((r) => r.load.latency.p99));
    const refP99 = median(refs[driver].map((r) => r.result.latency.p99));
    const opened = open[driver];
    const offered = median(opened.map((r) => r.rate));
    const openRate = median(opened.map((r) => r.load.perSecond));
    const openP99 = median(opened.map((r) => r.load.latency.p99));
    const kept = opened.every((r) => r.load.perSecond >= 0.97 * r.rate);
    const all = [...runs, ...opened];
    const stored = all.reduce((sum, r) => sum + r.stored, 0);
    const answered = all.reduce((sum, r) => sum + r.load.answered2xx, 0);
    const not2xx = all.reduce(
      (sum, r) =>
        sum +
        r.load.errors +
        Object.entries(r.load.statuses)
          .filter(([s]) => !s.startsWith("2"))
          .reduce((a, [, n]) => a + n, 0),
      0,
    );
    const refExact = refs[driver].every((r) => r.stored === r.result.committed);
    const share = rate / (settings.connections / 0.02);
    const name = NAMES[driver];
    return [
      figure(`${name}: events/s vs (b) one transaction per event`, rate, "events/s", {
        reference: { name: "(b) DB loop", value: refRate },
        better: "higher",
        target: "≥ 1.3× (b)",
        met: rate >= 1.3 * refRate,
        runs: runs.map((r) => r.load.perSecond),
      }),
      figure(`${name}: events/s vs (a) bare Hono 200`, rate, "events/s", {
        reference: { name: "(a) bare Hono", value: bareRate },
        better: "higher",
        runs: bare.map((b) => b.perSecond),
      }),
      figure(`${name}: p99 at 1.3× (b) offered (open loop)`, openP99, "ms", {
        reference: { name: "(b) p99", value: refP99 },
        better: "lower",
        target: "≤ 20 ms while answering 1.3× (b)",
        met: openP99 <= 20 && kept,
        runs: opened.map((r) => r.load.latency.p99),
        note:
          `offered ${fmt(offered)} events/s (1.3 × that round's (b)), answered ${fmt(openRate)}/s; ` +
          `p50 ${fmt(median(opened.map((r) => r.load.latency.p50)))} ms`,
        ...(openP99 <= 20 && kept
          ? {}
          : {
              shortBy: kept
                ? `${fmt(openP99 / 20)}× the limit`
                : "the offered rate was not kept up",
              why:
                "Far below saturation a delivery still waits for the task lookup (one query on a task's " +
                "first event, ~1 ms) and for a whole shared transaction (begin, lock, insert, update, append " +
                "and announce, commit), and for the batch before it when it arrives mid-commit. " +
                (driver === "pg"
                  ? "A trace of this path here (2026-11-22, 840 events/s offered) put each of the six statements " +
                    "at ~0.5 ms median but ~3 ms at p99, when the backend's one thread is busy with HTTP and " +
                    "Postgres and the load generator share the 2 cores. Changes that moved nothing beyond noise: " +
                    "two extra round trips per batch, 4 transactions in flight instead of 2, taking the batch " +
                    "without waiting one event-loop turn. The tail follows CPU contention, not round trips."
                  : "PGlite runs those statements on the backend's own thread, between HTTP requests, so SQL " +
                    "time and HTTP handling add up on one core."),
            }),
      }),
      figure(`${name}: latency p99 at saturation (closed loop)`, p99, "ms", {
        reference: { name: "(b) p99", value: refP99 },
        better: "lower",
        target: "≤ 20 ms",
        met: p99 <= 20,
        runs: runs.map((r) => r.load.latency.p99),
        shortBy: `${fmt(p99 / 20)}× the limit`,
        why:
          `With ${settings.connections} connections in a closed loop, a p99 of 20 ms needs at least ` +
          `${fmt(settings.connections / 0.02)} events/s (Little's law); this run committed ${fmt(rate)}/s ` +
          `(${fmt(share * 100)} % of that), ×${fmt(rate / refRate)} the database's own one-transaction-per-event ` +
          `limit (${fmt(refRate)}/s, p99 ${fmt(refP99)} ms). ` +
          (driver === "pg"
            ? "The backend process is the bottleneck: a CPU profile at saturation (2026-11-22) had it at " +
              "~87 % of one core, ~28 % of that in socket writes to Postgres and ~8 % in writing HTTP " +
              "answers; two extra round trips per batch did not change throughput. The p99 is the tail of " +
              "deliveries that arrive while a batch commits and wait for the next one."
            : "PGlite runs every statement on the backend's own thread, one at a time, between HTTP requests: " +
              "HTTP parsing, verification and SQL share one core."),
      }),
      figure(`${name}: latency p50`, p50, "ms", {
        reference: {
          name: "(a) p50",
          value: median(bare.map((b) => b.latency.p50)),
        },
        better: "lower",
      }),
      figure(`${name}: rows stored vs events answered 2xx`, stored, "rows", {
        reference: { name: "answered 2xx", value: answered },
        target: "equal (nothing lost), no non-2xx",
        met: stored === answered && not2xx === 0 && refExact,
        note: `${not2xx} answers other than 2xx; reference (b) committed = stored: ${refExact ? "yes" : "NO"}`,
      }),
    ];
  });
  const whileRunning = intake.pg
    .map((r) => `${r.storedWhileRunning ?? "?"}/${r.load.answered2xx}`)
    .join(", ");
  return {
    id: "1",
    title: "Webhook intake (verify, dedupe, store, merge, announce, 2xx)",
    figures,
    notes: [
      `${settings.connections} keep-alive connections from a separate load-generator process, closed loop, ` +
        `${settings.warmupMs / 1000} s warm-up then ${settings.durationMs / 1000} s measured, ${settings.rounds} interleaved rounds (medians). ` +
        `Bodies ~700 bytes, signed per spec 4.9, distinct event_ids; event k moves task k mod 20 000 ` +
        `(100 users) to in_progress, then success: almost every event changes a task, so it also appends ` +
        `and announces a task event. The backend is \`node dist/index.js\` on a fresh copy of a seeded database.`,
      `Open loop: after (b) in each round, a fresh backend is offered 1.3 × that round's (b) events/s, ` +
        `due at a fixed rate over the same ${settings.connections} connections whatever the answers; latency counts from ` +
        `when each delivery was due, so waiting for a free connection is included. This answers the target's ` +
        `question (more durable events/s than one transaction per event, each answered within 20 ms); the closed ` +
        `loop above measures the most the backend commits, where latency is connections ÷ throughput.`,
      `(a) is a bare Hono handler on @hono/node-server in a plain node process: it reads the body and answers 200. ` +
        `(b) is the same transaction the intake commits (tasks/apply.ts: lock, insert event ON CONFLICT DO NOTHING, ` +
        `merge, update, append + NOTIFY) with one event per transaction, from ${settings.connections} concurrent loops on a ` +
        `pool of ${settings.connections} connections, without HTTP or verification.`,
      `Rows stored are counted in webhook_events after the run; on Postgres also right after the load ` +
        `ended and before the backend stopped (stored/2xx: ${whileRunning}), which shows every 2xx was committed when answered.`,
    ],
  };
}

function dupSection(intake: Record<Driver, IntakeRun[]>, settings: BenchSettings): Section {
  const figures = (["pg", "pglite"] as const).flatMap((driver) => {
    const runs = intake[driver];
    const rate = median(runs.map((r) => r.dup.perSecond));
    const distinct = median(runs.map((r) => r.load.perSecond));
    const onlyOnce = runs.every(
      (r) =>
        r.dupStored === 1 &&
        r.dupTaskEvents === 1 &&
        r.dup.errors === 0 &&
        Object.keys(r.dup.statuses).every((s) => s.startsWith("2")),
    );
    const name = NAMES[driver];
    return [
      figure(`${name}: duplicate deliveries/s`, rate, "deliveries/s", {
        reference: { name: "distinct events/s", value: distinct },
        better: "higher",
        runs: runs.map((r) => r.dup.perSecond),
      }),
      figure(`${name}: duplicate storm p99`, median(runs.map((r) => r.dup.latency.p99)), "ms", {
        reference: {
          name: "distinct p99",
          value: median(runs.map((r) => r.load.latency.p99)),
        },
        better: "lower",
      }),
      figure(
        `${name}: rows stored for the storm's event_id`,
        median(runs.map((r) => r.dupStored)),
        "rows",
        {
          target: "exactly 1 (and 1 task event)",
          met: onlyOnce,
          note: runs.map((r) => `${r.dupStored} row/${r.dupTaskEvents} task event`).join(", "),
        },
      ),
    ];
  });
  return {
    id: "2",
    title: "Duplicate storm (one event_id delivered concurrently)",
    figures,
    notes: [
      `Right after each intake run, the same signed delivery (one event_id) is sent over ` +
        `${settings.connections} connections in a closed loop for ${settings.dupMs / 1000} s. ` +
        `Exactly one webhook_events row and one task event must exist afterwards; every delivery must be answered 2xx.`,
    ],
  };
}
