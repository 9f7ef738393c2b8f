import { and, asc, eq, gt, sql } from "drizzle-orm";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Database } from "../../db/client.ts";
import { taskEvents } from "../../db/schema/index.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { queryRows } from "../tasks/store.ts";
import { SESSIONS_REVOKED_CHANNEL } from "../sessions.ts";
import { TASK_EVENTS_CHANNEL } from "./append.ts";
import { endFrame, PING_FRAME, readyFrame, retryFrame, taskFrame } from "./frames.ts";
import { jitteredLifetime, type StreamLimits } from "./limits.ts";
import { controllerTarget, MAX_QUEUED_FRAMES, type StreamTarget } from "./stream-target.ts";

/** One connected live-event stream. Kept small: a benchmark holds 10,000 of them. */
interface Sink {
  readonly userId: number;
  /** The session that opened it: the stream ends when that session is revoked. */
  readonly sessionId: string | undefined;
  /** Clock time at which the heartbeat ends it (its jittered maximum lifetime). */
  readonly endsAt: number;
  /** Null until a transport claims the stream; frames wait in `unclaimed` meanwhile. */
  target: StreamTarget | null;
  unclaimed: Uint8Array[] | null;
  /** Last event id written to this stream (dedupes replay against live). */
  lastId: number;
  /** Live events held back while the stream replays from the database; null once live. */
  pending: { id: number; frame: Uint8Array }[] | null;
  /** Closed by the hub (backlog, lifetime, limit, stop) or the client; `failure` if attach failed. */
  closed: boolean;
  failure?: unknown;
}

/** A stream opened with {@link EventHub.open}: a transport claims it, or closes it. */
export interface LiveStream {
  /** Sends everything so far and every later frame to `target` (once). */
  claim(target: StreamTarget): void;
  /** The client left. */
  close(): void;
  /** Settles once the stream is live (after its `ready` frame or its replay), or failed. */
  readonly attached: Promise<void>;
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
  /** Reads stream deadlines (lifetimes); tests move it by hand. */
  clock?: Clock;
  /** Spreads lifetimes (jitter); tests pin it. */
  random?: () => number;
}

/** How {@link EventHub.open} starts a stream. */
export interface OpenOptions {
  /** Replays `id > lastEventId` first; without it the stream starts live. */
  lastEventId?: number;
  /** The session that opened it: the stream ends when that session is revoked. */
  sessionId?: string;
  limits: StreamLimits;
}

const PAGE = 500;
const REPLAY_PAGE = 200;
// An evicted client that is still alive waits longer before it comes back: with one stream too
// many, live clients then take turns every 30 s instead of evicting each other every 3 s.
const EVICTED_RETRY_MS = 30_000;

/**
 * Live task events for this instance's connected clients (DESIGN "A music task's life" step 6).
 * One LISTEN per instance; on a notification (coalesced: one read in flight, and one more if
 * anything arrived meanwhile) it reads task_events past its cursor and dispatches each row by
 * user id to the streams in memory. No per-stream timers and no per-stream queries once live:
 * one shared heartbeat (which also ends streams past their lifetime), one shared catch-up read.
 */
export function createEventHub(options: HubOptions) {
  const { database, metrics, logger } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const retryMs = options.retryMs ?? 3_000;
  const expiredFrame = endFrame("max_lifetime", retryMs);
  const evictedFrame = endFrame("too_many_streams", EVICTED_RETRY_MS);
  const db = database.db;
  const byUser = new Map<number, Set<Sink>>();
  let cursor = 0;
  let started: Promise<void> | undefined;
  let unlisten: (() => Promise<void>)[] = [];
  let timers: NodeJS.Timeout[] = [];
  let reading: Promise<void> | undefined;
  let readAgain = false;
  let count = 0;
  let stopped = false;
  // Read through functions: both change while a read awaits the database.
  const listening = () => count > 0;
  const moreToRead = () => readAgain && !stopped;

  function write(sink: Sink, frame: Uint8Array): void {
    if (sink.closed) return;
    const target = sink.target;
    if (!target) {
      sink.unclaimed?.push(frame);
      if ((sink.unclaimed?.length ?? 0) > MAX_QUEUED_FRAMES) end(sink);
      return;
    }
    if (target.backlogged()) {
      end(sink);
      return;
    }
    try {
      target.write(frame);
    } catch {
      detach(sink); // the stream was closed under us
    }
  }

  /** Closes a stream from the server side (the client reconnects and replays). */
  function end(sink: Sink, goodbye?: Uint8Array): void {
    detach(sink);
    if (sink.closed) return;
    sink.closed = true;
    sink.unclaimed = null;
    try {
      if (goodbye) sink.target?.write(goodbye);
      sink.target?.close();
    } catch {
      // already closed by the client
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
            { err: errorMessage(error) },
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

  /** Ends the user's oldest streams until at most `keep` remain (a Set keeps insertion order). */
  function endOldest(userId: number, keep: number): void {
    const sinks = [...(byUser.get(userId) ?? [])];
    for (const sink of sinks.slice(0, Math.max(0, sinks.length - keep))) end(sink, evictedFrame);
  }

  /** Ends streams past their lifetime; run by the heartbeat, so at most one heartbeat late. */
  function endExpired(): void {
    const now = clock.now();
    // Deleting the entry being visited is safe while iterating a Map or a Set.
    for (const sinks of byUser.values())
      for (const sink of sinks) if (now >= sink.endsAt) end(sink, expiredFrame);
  }

  /** Ends the streams of a revoked session (`<userId>:<sessionId>`). */
  function endRevoked(payload: string): void {
    const colon = payload.indexOf(":");
    const sessionId = payload.slice(colon + 1);
    const sinks = byUser.get(Number(payload.slice(0, colon)));
    for (const sink of [...(sinks ?? [])]) {
      if (sink.sessionId === sessionId) end(sink);
    }
  }

  async function begin(): Promise<void> {
    const [top] = await queryRows<{ max: string | null }>(
      db,
      sql`select max(id)::text as max from task_events`,
    );
    cursor = Number(top?.max ?? 0);
    unlisten = [
      await database.listen(TASK_EVENTS_CHANNEL, (payload) => {
        if (Number(payload) > cursor || payload === "") void readNew();
      }),
      await database.listen(SESSIONS_REVOKED_CHANNEL, endRevoked),
    ];
    const heartbeat = setInterval(() => {
      endExpired();
      for (const sinks of byUser.values())
        for (const sink of sinks) if (!sink.pending) write(sink, PING_FRAME);
    }, options.heartbeatMs ?? 15_000);
    const catchUp = setInterval(() => void readNew(), options.catchUpMs ?? 2_000);
    heartbeat.unref();
    catchUp.unref();
    timers = [heartbeat, catchUp];
  }

  function start(): Promise<void> {
    stopped = false;
    started ??= begin().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return started;
  }

  const hub = {
    /** Starts listening (idempotent; the first stream starts it too when workers are off). */
    start,

    /**
     * Opens a stream for `userId`. Without `lastEventId` it starts live with a `ready` frame
     * naming the resume position; with one it replays `id > lastEventId` from the database first,
     * holding live events back and deduping them by id. It is attached at once, so nothing that
     * happens from now on is missed; frames wait until a transport claims the stream. Attaching
     * one stream more than `limits.maxPerUser` ends the user's oldest; the heartbeat ends it after
     * its lifetime. Both send an `end` event and a `retry:` first.
     */
    open(userId: number, stream: OpenOptions): LiveStream {
      const { lastEventId, sessionId, limits } = stream;
      const sink: Sink = {
        userId,
        sessionId,
        endsAt: clock.now() + jitteredLifetime(limits.maxLifetimeMs, random),
        target: null,
        unclaimed: [],
        lastId: lastEventId ?? cursor,
        pending: lastEventId === undefined ? null : [],
        closed: false,
      };
      const fail = (error: unknown) => {
        logger.warn({ err: errorMessage(error) }, "live event stream failed to start");
        detach(sink);
        sink.closed = true;
        sink.unclaimed = null;
        sink.failure = error;
        sink.target?.fail(error);
        throw error;
      };
      const attached = start()
        .then(async () => {
          if (sink.closed) return;
          endOldest(userId, limits.maxPerUser - 1);
          let sinks = byUser.get(userId);
          if (!sinks) byUser.set(userId, (sinks = new Set()));
          sinks.add(sink);
          count += 1;
          metrics.sseClients.inc();
          write(sink, retryFrame(retryMs));
          if (lastEventId === undefined) {
            sink.lastId = Math.max(sink.lastId, cursor);
            write(sink, readyFrame(cursor));
          } else await replay(sink);
        })
        .catch(fail);
      attached.catch(() => undefined); // reported through the target; awaiting is optional
      return {
        attached,
        claim(target) {
          if (sink.target) return;
          sink.target = target;
          if (sink.failure !== undefined) {
            target.fail(sink.failure);
            return;
          }
          const waiting = sink.unclaimed ?? [];
          sink.unclaimed = null;
          if (sink.closed) {
            target.close();
            return;
          }
          for (const frame of waiting) write(sink, frame);
        },
        close() {
          detach(sink);
          sink.closed = true;
          sink.unclaimed = null;
        },
      };
    },

    /** Opens a stream onto a Web stream's controller; resolves once it is live (tests). */
    async attach(
      userId: number,
      controller: ReadableStreamDefaultController<Uint8Array>,
      stream: OpenOptions,
    ): Promise<LiveStream> {
      const live = hub.open(userId, stream);
      live.claim(controllerTarget(controller));
      await live.attached;
      return live;
    },

    /** Reads new events now (tests; also what a notification triggers). */
    poke: readNew,

    /** Ends streams past their lifetime now (tests; also what each heartbeat does). */
    endExpired,

    /** Connected streams on this instance. */
    get size() {
      return count;
    },

    /** Stops listening and closes every stream with a short `retry:` so clients move to another instance. */
    async stop(): Promise<void> {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      timers = [];
      for (const stop of unlisten) await stop().catch(() => undefined);
      unlisten = [];
      started = undefined;
      await reading;
      const goodbye = retryFrame(1_000);
      for (const sinks of [...byUser.values()]) {
        for (const sink of [...sinks]) end(sink, goodbye);
      }
    },
  };
  return hub;
}

export type EventHub = ReturnType<typeof createEventHub>;
