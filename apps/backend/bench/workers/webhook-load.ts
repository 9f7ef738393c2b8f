// Load generator for webhook intake, in its own process: `connections` keep-alive connections,
// each sending one signed delivery at a time (closed loop) until the deadline.
import { Http1Connection } from "../lib/http1.ts";
import { plannedEvent, signedDelivery } from "../lib/plan.ts";
import { serveWorker } from "../lib/procs.ts";
import { sleep, summarise, type LatencySummary } from "../lib/stats.ts";

export interface LoadRequest {
  port: number;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Tag of event ids (unique per run). */
  run: string;
  users: number;
  tasks: number;
  /** `distinct`: event k of the plan; `duplicate`: one event (task `tasks`), delivered over and over. */
  mode: "distinct" | "duplicate";
  /**
   * Open loop: deliveries are due at this fixed rate whatever the answers, spread over the
   * connections; latency counts from when a delivery was due, so waiting for a free connection
   * is included (no coordinated omission). Closed loop (each connection sends when answered)
   * when absent.
   */
  ratePerSecond?: number;
  /** Also answer each measured delivery's due time and latency (bench/lib/timeline.ts). */
  timeline?: boolean;
}

export interface LoadResult {
  /** Answers counted in the measured window (after warm-up). */
  measured: number;
  measuredMs: number;
  perSecond: number;
  latency: LatencySummary;
  /** Every answer, warm-up included, by HTTP status. */
  statuses: Record<string, number>;
  /** Answers 2xx, warm-up included (what the database must hold). */
  answered2xx: number;
  errors: number;
  /** Open loop only: what bench/lib/open-loop.ts judges "kept up" by. */
  openLoop?: {
    /** How long the warm-up lasted: `warmupMs`, or longer while a start-up backlog drained. */
    warmupMs: number;
    /** Answers received within the measured window, per second. */
    answeredPerSecond: number;
    /** Deliveries due and not yet answered when the window opened, and when it closed. */
    backlogAtStart: number;
    backlogAtEnd: number;
  };
  /** With `timeline`: [due (wall-clock ms), latency ms] of each measured delivery. */
  deliveries?: [number, number][];
}

async function run(request: LoadRequest): Promise<LoadResult> {
  const host = `127.0.0.1:${request.port}`;
  const connections = await Promise.all(
    Array.from({ length: request.connections }, () => Http1Connection.open(request.port)),
  );
  const duplicate =
    request.mode === "duplicate"
      ? signedDelivery(
          { task: request.tasks, eventId: `evt_${request.run}_dup`, status: "in_progress" },
          request.users,
          host,
        )
      : undefined;
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const deliveries: [number, number][] = [];
  let next = 0;
  let errors = 0;
  // Answers received before the window opened and before it closed (open loop's backlog).
  let answeredBeforeWindow = 0;
  let answeredBeforeEnd = 0;
  let answered = 0;
  const start = performance.now();
  const rate = request.ratePerSecond;
  // Closed loop: the window opens after the warm-up. Open loop: after the warm-up AND once the
  // server is on schedule (no more deliveries due and unanswered than connections), so that the
  // window measures the server at the offered rate, not its catch-up from a cold start (which
  // the report gives as the warm-up's length); bounded, and then it opens anyway.
  let measureFrom = rate === undefined ? start + request.warmupMs : Infinity;
  let end = measureFrom + request.durationMs;
  const openWindow = (now: number) => {
    if (measureFrom !== Infinity || rate === undefined || now < start + request.warmupMs) return;
    const backlog = dueBy(now - start, rate) - answered;
    if (backlog <= request.connections || now >= start + request.warmupMs + MAX_CATCH_UP_MS) {
      measureFrom = now;
      end = now + request.durationMs;
    }
  };
  /** When the next delivery is due: now (closed loop), or on the open loop's schedule. */
  async function due(): Promise<number> {
    if (rate === undefined) return performance.now();
    const at = start + (scheduled++ * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    return at;
  }
  let scheduled = 0;

  async function loop(connection: Http1Connection): Promise<void> {
    for (;;) {
      const sent = await due();
      if (sent >= end) return;
      const bytes =
        duplicate ??
        signedDelivery(plannedEvent(request.run, next++, request.tasks), request.users, host);
      try {
        const answer = await connection.send(bytes);
        const done = performance.now();
        answered += 1;
        openWindow(done);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (done <= measureFrom) answeredBeforeWindow += 1;
        if (done <= end) answeredBeforeEnd += 1;
        // Open loop: every delivery due in the window counts, however late its answer.
        if (sent >= measureFrom && (rate !== undefined || done <= end)) {
          latencies.push(done - sent);
          if (request.timeline) deliveries.push([performance.timeOrigin + sent, done - sent]);
        }
      } catch {
        errors += 1;
        return;
      }
    }
  }
  await Promise.all(connections.map(loop));
  for (const connection of connections) connection.close();
  const answered2xx = Object.entries(statuses)
    .filter(([status]) => status.startsWith("2"))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    measured: latencies.length,
    measuredMs: request.durationMs,
    perSecond: latencies.length / (request.durationMs / 1000),
    latency: summarise(latencies),
    statuses,
    answered2xx,
    errors,
    ...(request.timeline ? { deliveries } : {}),
    ...(rate === undefined
      ? {}
      : {
          openLoop: {
            warmupMs: measureFrom - start,
            answeredPerSecond:
              (answeredBeforeEnd - answeredBeforeWindow) / (request.durationMs / 1000),
            backlogAtStart: dueBy(measureFrom - start, rate) - answeredBeforeWindow,
            backlogAtEnd: dueBy(end - start, rate) - answeredBeforeEnd,
          },
        }),
  };
}

/** The longest an open loop waits, after its warm-up, for a start-up backlog to drain. */
const MAX_CATCH_UP_MS = 10_000;

/** Deliveries of the open loop's schedule due within `ms` of its start (the first is due at 0). */
const dueBy = (ms: number, rate: number) => Math.floor((ms * rate) / 1000) + 1;

// `ready` answers once the module (and what it imports) is loaded: the suite starts every
// worker and waits for this before any measured window.
serveWorker({ run, ready: () => Promise.resolve(true) });
