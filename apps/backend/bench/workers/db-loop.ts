// Reference (b) of webhook intake: the database's own limit for the intake's statements, one
// transaction per event, driven without HTTP. Each of `concurrency` loops runs exactly what a
// committed webhook runs (tasks/apply.ts: lock, insert the event ON CONFLICT DO NOTHING, merge,
// update, append and NOTIFY the task event) in its own transaction, on a pool of that size.
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { PGLITE_OPTIONS, type AppDatabase } from "../../src/db/client.ts";
import { wrapPglite } from "../../src/db/pglite.ts";
import * as schema from "../../src/db/schema/index.ts";
import { applyReports, type ApplyContext } from "../../src/services/tasks/apply.ts";
import { FILE_TTL_MS, type PlatformReport } from "../../src/services/tasks/merge.ts";
import { DEFAULT_EXPECTED_DURATION_MS } from "../../src/services/tasks/schedule.ts";
import { queryRows } from "../../src/db/rows.ts";
import { outputOf, plannedEvent, platformTaskIdOf, usageOf } from "../lib/plan.ts";
import { serveWorker } from "../lib/procs.ts";
import { summarise, type LatencySummary } from "../lib/stats.ts";

export interface DbLoopRequest {
  target: { url: string } | { dir: string };
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  run: string;
  tasks: number;
}

export interface DbLoopResult {
  perSecond: number;
  latency: LatencySummary;
  committed: number;
  errors: number;
}

async function open(target: DbLoopRequest["target"], concurrency: number) {
  if ("url" in target) {
    const pool = new pg.Pool({ connectionString: target.url, max: concurrency });
    // The suite drops this database (WITH FORCE) right after the run: a connection still closing
    // then reports "terminating connection", which must not end this worker.
    pool.on("error", () => undefined);
    const db = drizzle(pool, { schema, casing: "snake_case" }) as unknown as AppDatabase;
    return { db, close: () => pool.end() };
  }
  const client = new PGlite(target.dir, PGLITE_OPTIONS);
  await client.waitReady;
  const database = wrapPglite(client);
  return { db: database.db, close: () => database.close() };
}

async function run(request: DbLoopRequest): Promise<DbLoopResult> {
  const { db, close } = await open(request.target, request.concurrency);
  const ids = new Map<string, string>();
  const rows = await queryRows<{ id: string; platform_task_id: string }>(
    db,
    sql`select id, platform_task_id from tasks`,
  );
  for (const row of rows) ids.set(row.platform_task_id, row.id);
  const context = (): ApplyContext => ({
    now: Date.now(),
    schedule: { expectedDurationMs: DEFAULT_EXPECTED_DURATION_MS, random: Math.random },
    archive: false,
    fileTtlMs: FILE_TTL_MS,
    publicUrl: "http://127.0.0.1",
  });

  const latencies: number[] = [];
  let next = 0;
  let committed = 0;
  let errors = 0;
  const start = performance.now();
  const measureFrom = start + request.warmupMs;
  const end = measureFrom + request.durationMs;

  async function loop(): Promise<void> {
    while (performance.now() < end) {
      const event = plannedEvent(request.run, next++, request.tasks);
      const report: PlatformReport = {
        taskId: ids.get(platformTaskIdOf(event.task)) ?? "",
        source: "webhook",
        platformTaskId: platformTaskIdOf(event.task),
        status: event.status,
        output: outputOf(event.task, event.status),
        usageInfo: usageOf(event.status),
        webhookEvent: { eventId: event.eventId, signedAt: Date.now() },
      };
      const sent = performance.now();
      try {
        await db.transaction((tx) => applyReports(tx, [report], context()));
        committed += 1;
        const done = performance.now();
        if (sent >= measureFrom && done <= end) latencies.push(done - sent);
      } catch {
        errors += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: request.concurrency }, loop));
  await close();
  return {
    perSecond: latencies.length / (request.durationMs / 1000),
    latency: summarise(latencies),
    committed,
    errors,
  };
}

// `ready` answers once the module (and what it imports) is loaded: the suite starts every
// worker and waits for this before any measured window.
serveWorker({ run, ready: () => Promise.resolve(true) });
