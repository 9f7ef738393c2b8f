import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { taskEvents } from "../../db/schema/index.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { queryRows } from "../tasks/store.ts";
import { TASK_EVENTS_CHANNEL } from "./append.ts";
import { PING_FRAME, readyFrame, retryFrame, taskFrame } from "./frames.ts";

/** One connected live-event stream. Kept small: a benchmark holds 10,000 of them. */
interface Sink {
  readonly userId: number;
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  /** Last event id written to this stream (dedupes replay against live). */
  lastId: number;
  /** Live events held back while the stream replays from the database; null once live. */
  pending: { id: number; frame: Uint8Array }[] | null;
}

export interface HubOptions {
  database: Database;
  metrics: Metrics;
  logger: Logger;
  heartbeatMs?: number;
  /** Safety-net read for notifications missed while the LISTEN connection was down. */
  catchUpMs?: number;
  /** `retry:` hint (ms) sent to clients. */
  retryMs?: number;
}

const PAGE = 500;
const REPLAY_PAGE = 200;
// A stream this far behind (queued frames) is closed; the client reconnects and replays.
const MAX_QUEUED_FRAMES = 1_000;

/**
 * Live task events for this instance's connected clients (DESIGN "A music task's life" step 6).
 * One LISTEN per instance; on a notification (coalesced: one read in flight, and one more if
 * anything arrived meanwhile) it reads task_events past its cursor and dispatches each row by
 * user id to the streams in memory. No per-stream timers and no per-stream queries once live:
 * one shared heartbeat, one shared catch-up read.
 */
export function createEventHub(options: HubOptions) {
  const { database, metrics, logger } = options;
  const db = database.db;
  const byUser = new Map<number, Set<Sink>>();
  let cursor = 0;
  let started: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let timers: NodeJS.Timeout[] = [];
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let count = 0;
  let stopped = false;
  // Read through functions: both change while a read awaits the database.
  const listening = () => count > 0;
  const moreToRead = () => readAgain && !stopped;

  function write(sink: Sink, frame: Uint8Array): void {
    try {
      if ((sink.controller.desiredSize ?? 0) < -MAX_QUEUED_FRAMES) {
        detach(sink);
        sink.controller.close();
        return;
      }
      sink.controller.enqueue(frame);
    } catch {
      detach(sink); // the stream was closed under us
    }
  }

  function deliver(sink: Sink, id: number, frame: Uint8Array): void {
    if (sink.pending) sink.pending.push({ id, frame });
    else if (id > sink.lastId) {
      sink.lastId = id;
      write(sink, frame);
    }
  }

  async function readPages(): Promise<void> {
    for (;;) {
      if (count === 0) {
        // Nobody listening here: only move the cursor (unless a stream attached meanwhile).
        const [top] = await queryRows<{ max: string | null }>(
          db,
          sql`select max(id)::text as max from task_events`,
        );
        if (listening()) continue;
        cursor = Math.max(cursor, Number(top?.max ?? 0));
        return;
      }
      const rows = await db
        .select({
          id: taskEvents.id,
          userId: taskEvents.userId,
          payload: sql<string>`${taskEvents.payload}::text`,
        })
        .from(taskEvents)
        .where(gt(taskEvents.id, cursor))
        .orderBy(asc(taskEvents.id))
        .limit(PAGE);
      for (const row of rows) {
        cursor = row.id;
        const sinks = byUser.get(row.userId);
        if (!sinks) continue;
        const frame = taskFrame(row.id, row.payload);
        for (const sink of sinks) deliver(sink, row.id, frame);
      }
      if (rows.length < PAGE) return;
    }
  }

  /** Reads new events; concurrent triggers coalesce into one read plus at most one follow-up. */
  function readNew(): Promise<void> {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        await readPages().catch((error: unknown) => {
          logger.warn(
            { err: (error as Error).message },
            "reading task events failed; the catch-up read retries",
          );
        });
      } while (moreToRead());
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  function detach(sink: Sink): void {
    const sinks = byUser.get(sink.userId);
    if (!sinks?.delete(sink)) return;
    if (sinks.size === 0) byUser.delete(sink.userId);
    count -= 1;
    metrics.sseClients.dec();
  }

  async function replay(sink: Sink): Promise<void> {
    for (;;) {
      const rows = await db
        .select({ id: taskEvents.id, payload: sql<string>`${taskEvents.payload}::text` })
        .from(taskEvents)
        .where(and(eq(taskEvents.userId, sink.userId), gt(taskEvents.id, sink.lastId)))
        .orderBy(asc(taskEvents.id))
        .limit(REPLAY_PAGE);
      for (const row of rows) {
        sink.lastId = row.id;
        write(sink, taskFrame(row.id, row.payload));
      }
      if (rows.length < REPLAY_PAGE) break;
    }
    const held = sink.pending ?? [];
    sink.pending = null;
    for (const event of held) deliver(sink, event.id, event.frame);
  }

  async function begin(): Promise<void> {
    const [top] = await queryRows<{ max: string | null }>(
      db,
      sql`select max(id)::text as max from task_events`,
    );
    cursor = Number(top?.max ?? 0);
    unlisten = await database.listen(TASK_EVENTS_CHANNEL, (payload) => {
      if (Number(payload) > cursor || payload === "") void readNew();
    });
    const heartbeat = setInterval(() => {
      for (const sinks of byUser.values())
        for (const sink of sinks) if (!sink.pending) write(sink, PING_FRAME);
    }, options.heartbeatMs ?? 15_000);
    const catchUp = setInterval(() => void readNew(), options.catchUpMs ?? 2_000);
    heartbeat.unref();
    catchUp.unref();
    timers = [heartbeat, catchUp];
  }

  return {
    /** Starts listening (idempotent; the first stream starts it too when workers are off). */
    start(): Promise<void> {
      stopped = false;
      started ??= begin().catch((error: unknown) => {
        started = undefined;
        throw error;
      });
      return started;
    },

    /**
     * Attaches a stream. Without `lastEventId` it starts live with a `ready` frame naming the
     * resume position; with one it replays `id > lastEventId` from the database first, holding
     * live events back and deduping them by id.
     */
    async attach(
      userId: number,
      controller: ReadableStreamDefaultController<Uint8Array>,
      lastEventId?: number,
    ): Promise<Sink> {
      await this.start();
      const sink: Sink = {
        userId,
        controller,
        lastId: lastEventId ?? cursor,
        pending: lastEventId === undefined ? null : [],
      };
      let sinks = byUser.get(userId);
      if (!sinks) byUser.set(userId, (sinks = new Set()));
      sinks.add(sink);
      count += 1;
      metrics.sseClients.inc();
      controller.enqueue(retryFrame(options.retryMs ?? 3_000));
      if (lastEventId === undefined) controller.enqueue(readyFrame(cursor));
      else {
        try {
          await replay(sink);
        } catch (error) {
          detach(sink);
          throw error;
        }
      }
      return sink;
    },

    detach,

    /** Reads new events now (tests; also what a notification triggers). */
    poke: readNew,

    /** Connected streams on this instance. */
    get size() {
      return count;
    },

    /** Stops listening and closes every stream with a short `retry:` so clients move to another instance. */
    async stop(): Promise<void> {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      timers = [];
      await unlisten?.().catch(() => undefined);
      unlisten = undefined;
      started = undefined;
      await reading;
      const goodbye = retryFrame(1_000);
      for (const sinks of [...byUser.values()]) {
        for (const sink of [...sinks]) {
          detach(sink);
          try {
            sink.controller.enqueue(goodbye);
            sink.controller.close();
          } catch {
            // already closed by the client
          }
        }
      }
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
