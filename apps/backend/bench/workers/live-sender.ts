// Item 4's webhook sender, in a process of its own: the SSE clients (sse-clients.ts) time the
// arrivals in another, so neither's event loop delays what the other times. Both read the
// machine's monotonic clock.
import { Http1Connection } from "../lib/http1.ts";
import { eventKey, plannedEvent, platformTaskIdOf, signedDelivery } from "../lib/plan.ts";
import { monotonicMs, watchProcessLoad, type ProcessLoad } from "../lib/process-load.ts";
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
  sent: number;
  non2xx: number;
  /** Sends that waited for a free connection (the sender fell behind its schedule). */
  late: number;
  /** Measured deliveries: from when each was due to when it was written (waiting for a connection). */
  waited: LatencySummary;
  /** This process over the measured window. */
  load: ProcessLoad;
  /** CPU of the watched processes over the window, % of one core. */
  watched?: { pids: number[]; postgres: number };
}

async function send(request: SendRequest): Promise<SendResult> {
  const host = `127.0.0.1:${request.port}`;
  const pool = await Promise.all(
    Array.from({ length: request.connections }, () => Http1Connection.open(request.port)),
  );
  const idle = [...pool];
  const backlog: number[] = [];
  const measured: SentEvent[] = [];
  const waited: number[] = [];
  let non2xx = 0;
  let late = 0;
  let sent = 0;
  let answered = 0;
  const start = performance.now();
  const measureFrom = start + request.warmupMs;
  const end = measureFrom + request.durationMs;
  let load: ReturnType<typeof watchProcessLoad> | undefined;
  const { watch } = request;
  const watchedCpu = () =>
    watch ? [...watch.pids.map(cpuSecondsOf), postgresCpuOf(watch.database)] : [];
  let watchedAtStart: number[] = [];

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
        const waiting = backlog.shift();
        if (waiting === undefined) idle.push(connection);
        else {
          late += 1;
          deliver(waiting, connection);
        }
      },
      () => {
        answered += 1;
        non2xx += 1;
      },
    );
  }

  // Open loop: event k is due at start + k / rate, whatever the answers do.
  let next = 0;
  while (performance.now() < end) {
    if (!load && performance.now() >= measureFrom) {
      load = watchProcessLoad();
      watchedAtStart = watchedCpu();
    }
    const due = Math.floor(((performance.now() - start) * request.rate) / 1000) + 1;
    while (next < due) {
      const connection = idle.pop();
      if (connection) deliver(next, connection);
      else backlog.push(next);
      next += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const windowLoad = (load ?? watchProcessLoad()).stop();
  const watched = watchedCpu().map(
    (seconds, i) => ((seconds - (watchedAtStart[i] ?? 0)) * 100_000) / request.durationMs,
  );
  const drainUntil = performance.now() + 5_000;
  while ((backlog.length > 0 || answered < sent) && performance.now() < drainUntil) await sleep(20);
  for (const connection of pool) connection.close();
  return {
    measured,
    sent,
    non2xx,
    late,
    waited: summarise(waited),
    load: windowLoad,
    ...(watch
      ? { watched: { pids: watched.slice(0, watch.pids.length), postgres: watched.at(-1) ?? 0 } }
      : {}),
  };
}

serveWorker({ send, ready: () => Promise.resolve(true) });
