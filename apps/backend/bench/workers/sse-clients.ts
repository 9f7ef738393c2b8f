// Item 4: live-event clients and the webhook sender in one process, so one clock times
// "webhook sent → event frame received"; and idle streams held open for the memory figure.
import type { Socket } from "node:net";
import { Http1Connection, openSse } from "../lib/http1.ts";
import { plannedEvent, sessionTokenOf, signedDelivery } from "../lib/plan.ts";
import { serveWorker } from "../lib/procs.ts";
import { sleep, summarise, type LatencySummary } from "../lib/stats.ts";

export interface LiveRequest {
  ssePort: number;
  webhookPort: number;
  /** Clients = users: client c is user c + 1, so each event reaches exactly one client. */
  clients: number;
  tasks: number;
  rate: number;
  warmupMs: number;
  durationMs: number;
  connections: number;
  run: string;
}

export interface LiveResult {
  connected: number;
  sent: number;
  /** Events of the measured window and how many of them arrived. */
  measured: number;
  received: number;
  latency: LatencySummary;
  /** The webhook's own HTTP answer time, same window. */
  webhook: LatencySummary;
  non2xx: number;
  /** Sends that waited for a free connection (the sender fell behind its schedule). */
  late: number;
}

async function live(request: LiveRequest): Promise<LiveResult> {
  const sentAt = new Map<string, { at: number; measured: boolean }>();
  const latencies: number[] = [];
  let received = 0;
  const streams = await openMany(request.clients, 100, (c) =>
    openSse({
      port: request.ssePort,
      path: "/api/events",
      headers: { Authorization: `Bearer ${sessionTokenOf(c + 1)}`, Accept: "text/event-stream" },
      onFrame(frame) {
        if (frame.event !== "task" || !frame.data) return;
        const now = performance.now();
        const task = JSON.parse(frame.data) as { platform_task_id: string; status: string };
        const key = `${task.platform_task_id}:${task.status}`;
        const sent = sentAt.get(key);
        if (!sent) return;
        sentAt.delete(key);
        if (sent.measured) {
          received += 1;
          latencies.push(now - sent.at);
        }
      },
    }),
  );
  const connected = streams.filter((s) => s.status === 200).length;
  await sleep(500); // every stream attached to the hub

  const host = `127.0.0.1:${request.webhookPort}`;
  const pool = await Promise.all(
    Array.from({ length: request.connections }, () => Http1Connection.open(request.webhookPort)),
  );
  const idle = [...pool];
  const backlog: number[] = [];
  const webhookLatencies: number[] = [];
  let non2xx = 0;
  let late = 0;
  let sent = 0;
  let measured = 0;
  const start = performance.now();
  const measureFrom = start + request.warmupMs;
  const end = measureFrom + request.durationMs;

  function send(k: number, connection: Http1Connection): void {
    const event = plannedEvent(request.run, k, request.tasks);
    const bytes = signedDelivery(event, request.clients, host);
    const at = performance.now();
    const inWindow = at >= measureFrom && at < end;
    if (inWindow) measured += 1;
    sentAt.set(`ptask_${event.task}:${event.status}`, { at, measured: inWindow });
    sent += 1;
    connection.send(bytes).then(
      (answer) => {
        if (inWindow) webhookLatencies.push(performance.now() - at);
        if (answer.status < 200 || answer.status > 299) non2xx += 1;
        const waiting = backlog.shift();
        if (waiting === undefined) idle.push(connection);
        else {
          late += 1;
          send(waiting, connection);
        }
      },
      () => {
        non2xx += 1;
      },
    );
  }

  // Open loop: event k is due at start + k / rate, whatever the answers do.
  let next = 0;
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - start) * request.rate) / 1000);
    while (next < due) {
      const connection = idle.pop();
      if (connection) send(next, connection);
      else backlog.push(next);
      next += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const drainUntil = performance.now() + 5_000;
  while ((backlog.length > 0 || received < measured) && performance.now() < drainUntil)
    await sleep(20);
  for (const connection of pool) connection.close();
  for (const stream of streams) stream.close();
  return {
    connected,
    sent,
    measured,
    received,
    latency: summarise(latencies),
    webhook: summarise(webhookLatencies),
    non2xx,
    late,
  };
}

/** Opens `count` connections, at most `parallel` at a time. */
async function openMany<T>(
  count: number,
  parallel: number,
  open: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  async function lane(): Promise<void> {
    while (next < count) {
      const index = next++;
      results[index] = await open(index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, lane));
  return results;
}

const held: { close: () => void; socket: Socket }[] = [];

export interface IdleRequest {
  port: number;
  count: number;
  users: number;
}

export interface IdleResult {
  held: number;
  failed: number;
  openMs: number;
}

/** Opens `count` more idle streams and keeps them open; counts those answered 200. */
async function idle(request: IdleRequest): Promise<IdleResult> {
  const started = performance.now();
  let failed = 0;
  const offset = held.length;
  await openMany(request.count, 200, async (i) => {
    try {
      const stream = await openSse({
        port: request.port,
        path: "/api/events",
        headers: {
          Authorization: `Bearer ${sessionTokenOf(1 + ((offset + i) % request.users))}`,
          Accept: "text/event-stream",
        },
        onFrame: () => undefined,
        parseFrames: false,
      });
      if (stream.status === 200) held.push(stream);
      else {
        failed += 1;
        stream.close();
      }
    } catch {
      failed += 1;
    }
  });
  const alive = held.filter((s) => !s.socket.destroyed).length;
  return { held: alive, failed, openMs: performance.now() - started };
}

function closeIdle(): Promise<number> {
  const alive = held.filter((s) => !s.socket.destroyed).length;
  for (const stream of held.splice(0)) stream.close();
  return Promise.resolve(alive);
}

serveWorker({ live, idle, closeIdle });
