// Reference of webhook intake: the minimal durable transaction (lib/minimal-sql.ts) from a Node
// pool without HTTP, `clients` connections each looping one transaction at a time: what Postgres
// itself commits here for this work, measured from the same runtime as the backend.
import pg from "pg";
import { MINIMAL_INSERT, MINIMAL_UPDATE } from "../lib/minimal-sql.ts";
import { platformTaskIdOf } from "../lib/plan.ts";
import { serveWorker } from "../lib/procs.ts";
import { summarise, type LatencySummary } from "../lib/stats.ts";

export interface MinimalRequest {
  url: string;
  clients: number;
  warmupMs: number;
  durationMs: number;
  run: string;
  tasks: number;
}

export interface MinimalResult {
  perSecond: number;
  latency: LatencySummary;
  committed: number;
  errors: number;
}

async function run(request: MinimalRequest): Promise<MinimalResult> {
  const clients = await Promise.all(
    Array.from({ length: request.clients }, async () => {
      const client = new pg.Client({ connectionString: request.url });
      // The suite drops the database right after: a closing connection must not end the worker.
      client.on("error", () => undefined);
      await client.connect();
      return client;
    }),
  );
  const latencies: number[] = [];
  let next = 0;
  let committed = 0;
  let errors = 0;
  const start = performance.now();
  const measureFrom = start + request.warmupMs;
  const end = measureFrom + request.durationMs;

  async function loop(client: pg.Client): Promise<void> {
    while (performance.now() < end) {
      const k = next++;
      const task = platformTaskIdOf(k % request.tasks);
      const sent = performance.now();
      try {
        await client.query("begin");
        await client.query(MINIMAL_INSERT, [`evt_${request.run}_${k}`, task]);
        await client.query(MINIMAL_UPDATE, [task]);
        await client.query("commit");
        committed += 1;
        const done = performance.now();
        if (sent >= measureFrom && done <= end) latencies.push(done - sent);
      } catch {
        errors += 1;
        await client.query("rollback").catch(() => undefined);
      }
    }
  }
  await Promise.all(clients.map(loop));
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  return {
    perSecond: latencies.length / (request.durationMs / 1000),
    latency: summarise(latencies),
    committed,
    errors,
  };
}

serveWorker({ run, ready: () => Promise.resolve(true) });
