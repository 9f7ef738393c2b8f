// Item 4's webhook sender, in a process of its own: the SSE clients (sse-clients.ts) time the
// arrivals in another, so neither's event loop delays what the other times. Both read the
// machine's monotonic clock.
import { Http1Connection } from "../lib/http1.ts";
import { eventKey, plannedEvent, platformTaskIdOf, signedDelivery } from "../lib/plan.ts";
import { monotonicMs, sampleProcessLoad, type ProcessLoad } from "../lib/process-load.ts";
import { cpuSecondsOf, postgresCpuOf, serveWorker } from "../lib/procs.ts";
import { sleep, summarise, type LatencySummary } from "../lib/stats.ts";

export interface SendRequest {
  port: number;
  /** Users of the plan (event k goes to user 1 + (k mod tasks) mod users). */
  users: number;
  tasks: number;
  rate: number;
  warmupMs: number;
  durationMs: number;
  connections: number;
  run: string;
  /** Processes whose CPU share over the measured window is read too (backends, a database). */
  watch?: { pids: number[]; database: string };
}

/** A delivery of the measured window: its event's key, when it was sent and answered (monotonic ms). */
export type SentEvent = [key: string, sentAt: number, answeredAt: number];

export interface SendResult {
  /** Deliveries sent in the measured window (answeredAt 0: no 2xx). */
  measured: SentEvent[];
  /** The measured window, monotonic ms (the SSE clients read their own load over it). */
  window: [from: number, to: number];
  /** How long the warm-up took: at least `warmupMs`, and until no delivery waited. */
  warmedUpMs: number;
  /** Deliveries still waiting for a connection when the window opened (0 unless capped). */
  backlogAtWindow: number;
  sent: number;
  non2xx: number;
  /** Sends that waited for a free connection (the sender fell behind its schedule). */
  late: number;
  /** Connections the server had closed, replaced by new ones (a keep-alive pool's usual work). */
  reopened: number;
  /** Measured deliveries: from when each was due to when it was written (waiting for a connection). */
  waited: LatencySummary;
  /** Deliveries due but not yet written, every 500 ms from the start (warm-up included). */
  backlog: number[];
  /** This process over the measured window. */
  load: ProcessLoad;
  /** CPU of the watched processes over the window, % of one core. */
  watched?: { pids: number[]; postgres: number };
}

// The warm-up goes on past `warmupMs` until the sender has been on schedule (no delivery waiting
// for a connection) for ON_SCHEDULE_MS, at most MAX_EXTRA_WARMUP_MS longer: the first event of
// each user (its secret is read once) costs more than the later ones, and a backlog left from
// them turned the measured window into a catch-up at whatever 50 connections carry (up to 870
// deliveries behind 3.5 s in, caught up ~1 s into the window), not the offered rate.
const ON_SCHEDULE_MS = 500;
const MAX_EXTRA_WARMUP_MS = 10_000;

async function send(request: SendRequest): Promise<SendResult> {
  const host = `127.0.0.1:${request.port}`;
  const pool = await Promise.all(
    Array.from({ length: request.connections }, () => Http1Connection.open(request.port)),
  );
  const load = sampleProcessLoad();
  // First in, first out: every connection is reused every connections ÷ rate seconds, never left
  // idle for long. Last in, first out left the bottom of the pool idle past the server's
  // keep-alive timeout; the server closed those, and deliveries written to them were lost.
  const idle = [...pool];
  const backlog: number[] = [];
  const measured: SentEvent[] = [];
  const waited: number[] = [];
  let non2xx = 0;
  let late = 0;
  let reopened = 0;
  let sent = 0;
  let answered = 0;
  const start = performance.now();
  // Set once the warm-up is over.
  let measureFrom = Number.POSITIVE_INFINITY;
  let end = Number.POSITIVE_INFINITY;
  let backlogAtWindow = 0;
  const { watch } = request;
  const watchedCpu = () =>
    watch ? [...watch.pids.map(cpuSecondsOf), postgresCpuOf(watch.database)] : [];
  let watchedAtStart: number[] = [];

  /** The next open idle connection; a closed one is replaced and joins the pool when open. */
  function takeIdle(): Http1Connection | undefined {
    for (let connection = idle.shift(); connection; connection = idle.shift()) {
      if (connection.isOpen) return connection;
      reopened += 1;
      // A connection that cannot be opened again leaves the pool one smaller.
      void Http1Connection.open(request.port).then(
        (fresh) => {
          pool.push(fresh);
          release(fresh);
        },
        () => undefined,
      );
    }
    return undefined;
  }

  /** A connection free again: it carries the oldest waiting delivery, or goes idle. */
  function release(connection: Http1Connection): void {
    const waiting = backlog.shift();
    if (waiting === undefined) idle.push(connection);
    else {
      late += 1;
      deliver(waiting, connection);
    }
  }

  function deliver(k: number, connection: Http1Connection): void {
    const event = plannedEvent(request.run, k, request.tasks);
    const bytes = signedDelivery(event, request.users, host);
    const at = performance.now();
    const row: SentEvent | undefined =
      at >= measureFrom && at < end
        ? [eventKey(platformTaskIdOf(event.task), event.status), monotonicMs(), 0]
        : undefined;
    if (row) {
      measured.push(row);
      waited.push(at - (start + (k * 1000) / request.rate));
    }
    sent += 1;
    connection.send(bytes).then(
      (answer) => {
        answered += 1;
        if (answer.status < 200 || answer.status > 299) non2xx += 1;
        else if (row) row[2] = monotonicMs();
        release(connection);
      },
      () => {
        answered += 1;
        non2xx += 1;
        // Closed under the request: takeIdle replaces it.
        idle.push(connection);
      },
    );
  }

  // Open loop: event k is due at start + k / rate, whatever the answers do.
  let next = 0;
  const backlogs: number[] = [];
  let sampleAt = start;
  const window: [number, number] = [0, 0];
  let behindAt = start;
  // Past event 2 × tasks the plan repeats changes that change nothing (no SSE event): the
  // window must end before.
  const longestWarmupMs = Math.min(
    request.warmupMs + MAX_EXTRA_WARMUP_MS,
    (2 * request.tasks * 1000) / request.rate - request.durationMs,
  );
  for (let now = start; now < end; now = performance.now()) {
    if (now >= sampleAt) {
      backlogs.push(backlog.length);
      sampleAt += 500;
    }
    if (backlog.length > 0) behindAt = now;
    const warmedUp =
      now >= start + request.warmupMs &&
      (now - behindAt >= ON_SCHEDULE_MS || now >= start + longestWarmupMs);
    if (measureFrom === Number.POSITIVE_INFINITY && warmedUp) {
      measureFrom = now;
      end = now + request.durationMs;
      backlogAtWindow = backlog.length;
      window[0] = monotonicMs();
      watchedAtStart = watchedCpu();
    }
    const due = Math.floor(((now - start) * request.rate) / 1000) + 1;
    while (next < due) {
      const connection = takeIdle();
      if (connection) deliver(next, connection);
      else {
        backlog.push(next);
        behindAt = now;
      }
      next += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  window[1] = monotonicMs();
  const watched = watchedCpu().map(
    (seconds, i) => ((seconds - (watchedAtStart[i] ?? 0)) * 100_000) / request.durationMs,
  );
  const drainUntil = performance.now() + 5_000;
  while ((backlog.length > 0 || answered < sent) && performance.now() < drainUntil) await sleep(20);
  for (const connection of pool) connection.close();
  load.stop();
  return {
    measured,
    window,
    warmedUpMs: measureFrom - start,
    backlogAtWindow,
    sent,
    non2xx,
    late,
    reopened,
    waited: summarise(waited),
    backlog: backlogs,
    load: load.between(window[0], window[1]),
    ...(watch
      ? { watched: { pids: watched.slice(0, watch.pids.length), postgres: watched.at(-1) ?? 0 } }
      : {}),
  };
}

serveWorker({ send, ready: () => Promise.resolve(true) });
