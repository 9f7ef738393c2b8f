// Item 4: the live-event clients (the webhook sender is live-sender.ts, another process; both
// time on the machine's monotonic clock), and idle streams held open for the memory figure.
import type { Socket } from "node:net";
import { openSse } from "../lib/http1.ts";
import { eventKey, sessionTokenOf } from "../lib/plan.ts";
import { serveWorker } from "../lib/procs.ts";
import { monotonicMs, sampleProcessLoad, type ProcessLoad } from "../lib/process-load.ts";
import { sleep } from "../lib/stats.ts";

export interface ListenRequest {
  port: number;
  /** Client c is user c + 1 (the sender's plan sends each event to exactly one of them). */
  clients: number;
}

export interface ListenResult {
  connected: number;
}

export interface CollectRequest {
  /** Keys of the events to wait for (`ptask_<task>:<status>`, live-sender.ts). */
  keys: string[];
  /** Longest wait for the last of them. */
  waitMs: number;
  /** The sender's measured window (monotonic ms): this process's load is read over it. */
  window: [from: number, to: number];
}

export interface CollectResult {
  /** Arrival of each key's `event: task` frame, monotonic ms (0: never arrived). */
  arrivals: number[];
  /** Streams that ended before the run closed them (these clients do not reconnect). */
  endedEarly: number;
  /** This process over the sender's measured window. */
  load: ProcessLoad;
}

/** The streams of the current live run and the first arrival of each event key. */
const listening: {
  streams: { close: () => void }[];
  endedEarly: number;
  arrivals: Map<string, number>;
  load?: ReturnType<typeof sampleProcessLoad>;
} = { streams: [], arrivals: new Map(), endedEarly: 0 };

/** Opens one stream per client and records when each task event arrives (monotonic clock). */
async function listen(request: ListenRequest): Promise<ListenResult> {
  const arrivals = new Map<string, number>();
  const streams = await openMany(request.clients, 100, (c) =>
    openSse({
      port: request.port,
      path: "/api/events",
      headers: { Authorization: `Bearer ${sessionTokenOf(c + 1)}`, Accept: "text/event-stream" },
      onFrame(frame) {
        if (frame.event !== "task" || !frame.data) return;
        const at = monotonicMs();
        const task = JSON.parse(frame.data) as { platform_task_id: string; status: string };
        const key = eventKey(task.platform_task_id, task.status);
        if (!arrivals.has(key)) arrivals.set(key, at);
      },
    }),
  );
  listening.streams = streams;
  listening.arrivals = arrivals;
  listening.endedEarly = 0;
  for (const { socket } of streams)
    socket.once("close", () => {
      // Still this run's streams: not closed by collect() (which empties the list first).
      if (listening.streams === streams && streams.length > 0) listening.endedEarly += 1;
    });
  listening.load = sampleProcessLoad();
  return { connected: streams.filter((s) => s.status === 200).length };
}

/** Waits (at most `waitMs`) until every key arrived, closes the streams, answers the arrivals. */
async function collect(request: CollectRequest): Promise<CollectResult> {
  const { arrivals } = listening;
  const until = performance.now() + request.waitMs;
  while (request.keys.some((key) => !arrivals.has(key)) && performance.now() < until)
    await sleep(20);
  const endedEarly = listening.endedEarly;
  for (const stream of listening.streams.splice(0)) stream.close();
  const sampler = listening.load ?? sampleProcessLoad();
  listening.load = undefined;
  sampler.stop();
  return {
    arrivals: request.keys.map((key) => arrivals.get(key) ?? 0),
    endedEarly,
    load: sampler.between(...request.window),
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

serveWorker({ listen, collect, idle, closeIdle });
