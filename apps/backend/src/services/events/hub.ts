import type { Database } from "../../db/client.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { createEventFeed, type FeedEvent } from "./feed.ts";
import { endFrame, PING_FRAME, readyFrame, retryFrame, taskFrame } from "./frames.ts";
import { jitteredLifetime, type StreamLimits } from "./limits.ts";
import { controllerTarget } from "./stream-target.ts";
import { type LiveStream, Stream, type StreamRegistry } from "./stream.ts";

export type { LiveStream } from "./stream.ts";

/**
 * Subscribes to revoked sessions, everywhere (the session service's LISTEN); resolves to an
 * unsubscribe function. Injected, so the hub knows nothing of how sessions are kept.
 */
export type RevocationSource = (
  onRevoked: (userId: number, sessionId: string) => void,
) => Promise<() => Promise<void>>;

export interface HubOptions {
  database: Database;
  metrics: Metrics;
  logger: Logger;
  /** Ends the streams of a session revoked on any instance (none without it). */
  revocations?: RevocationSource;
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
  /** Replays only each task's newest event after `lastEventId` (`?replay=latest`). */
  latestOnly?: boolean;
  /** The session that opened it: the stream ends when that session is revoked. */
  sessionId?: string;
  limits: StreamLimits;
}

// An evicted client that is still alive waits longer before it comes back: with one stream too
// many, live clients then take turns every 30 s instead of evicting each other every 3 s.
const EVICTED_RETRY_MS = 30_000;

// The heartbeat pings one slice of the streams per tick (every 250 ms by default), each stream
// once per heartbeat: a ping to every stream at once held the event loop 25-53 ms with 1,000
// streams and 200-460 ms with 10,000 on the bench machine, and every webhook in flight waited.
const HEARTBEAT_SLICES = 60;

/**
 * Live task events for this instance's connected clients (DESIGN "A music task's life" step 6):
 * the streams of each user, fed by the instance's one reader of task_events (feed.ts). No
 * per-stream timers and no per-stream queries once live: one shared heartbeat (which also ends
 * streams past their lifetime), one shared catch-up read.
 */
export function createEventHub(options: HubOptions) {
  const { metrics, logger } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const retryMs = options.retryMs ?? 3_000;
  const expiredFrame = endFrame("max_lifetime", retryMs);
  const evictedFrame = endFrame("too_many_streams", EVICTED_RETRY_MS);
  const byUser = new Map<number, Set<Stream>>();
  const slices = Array.from({ length: HEARTBEAT_SLICES }, () => new Set<Stream>());
  let nextSlice = 0;
  let count = 0;
  let started: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let unrevoke: (() => Promise<void>) | undefined;

  const registry: StreamRegistry = {
    remove(stream) {
      const streams = byUser.get(stream.userId);
      if (!streams?.delete(stream)) return;
      if (streams.size === 0) byUser.delete(stream.userId);
      slices[stream.heartbeatSlice]?.delete(stream);
      count -= 1;
      metrics.sseClients.dec();
    },
  };

  const feed = createEventFeed({
    database: options.database,
    logger,
    ...(options.catchUpMs === undefined ? {} : { catchUpMs: options.catchUpMs }),
    listening: () => count > 0,
    dispatch: (event: FeedEvent) => {
      const streams = byUser.get(event.userId);
      if (!streams) return;
      const frame = taskFrame(event.id, event.payload);
      for (const stream of streams) stream.deliver(event.id, frame);
    },
  });

  function add(stream: Stream): void {
    let streams = byUser.get(stream.userId);
    if (!streams) byUser.set(stream.userId, (streams = new Set()));
    streams.add(stream);
    stream.heartbeatSlice = nextSlice;
    slices[nextSlice]?.add(stream);
    nextSlice = (nextSlice + 1) % HEARTBEAT_SLICES;
    count += 1;
    metrics.sseClients.inc();
  }

  /** Ends the user's oldest streams until at most `keep` remain (a Set keeps insertion order). */
  function endOldest(userId: number, keep: number): void {
    const streams = [...(byUser.get(userId) ?? [])];
    for (const stream of streams.slice(0, Math.max(0, streams.length - keep)))
      stream.end(evictedFrame);
  }

  /** Ends streams past their lifetime (the heartbeat does it for each slice it pings, so a
   * stream ends at most one heartbeat late). */
  function endExpired(): void {
    const now = clock.now();
    // Deleting the entry being visited is safe while iterating a Map or a Set.
    for (const streams of byUser.values())
      for (const stream of streams) if (now >= stream.endsAt) stream.end(expiredFrame);
  }

  function endSession(userId: number, sessionId: string): void {
    for (const stream of [...(byUser.get(userId) ?? [])])
      if (stream.sessionId === sessionId) stream.end();
  }

  async function begin(): Promise<void> {
    await feed.start();
    unrevoke = await options.revocations?.(endSession);
    let tick = 0;
    heartbeat = setInterval(
      () => {
        const slice = slices[tick] ?? new Set<Stream>();
        tick = (tick + 1) % HEARTBEAT_SLICES;
        const now = clock.now();
        for (const stream of slice) {
          if (now >= stream.endsAt) stream.end(expiredFrame);
          else if (stream.live) stream.write(PING_FRAME);
        }
      },
      (options.heartbeatMs ?? 15_000) / HEARTBEAT_SLICES,
    );
    heartbeat.unref();
  }

  function start(): Promise<void> {
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
      const { lastEventId, sessionId, limits, latestOnly = false } = stream;
      const endsAt = clock.now() + jitteredLifetime(limits.maxLifetimeMs, random);
      const live = new Stream(
        registry,
        userId,
        sessionId,
        endsAt,
        lastEventId ?? feed.cursor,
        lastEventId !== undefined,
      );
      live.attached = start()
        .then(async () => {
          if (live.closed) return;
          endOldest(userId, limits.maxPerUser - 1);
          add(live);
          live.write(retryFrame(retryMs));
          if (lastEventId === undefined) {
            live.lastId = Math.max(live.lastId, feed.cursor);
            live.write(readyFrame(feed.cursor));
          } else
            await live.replay(latestOnly ? feed.latestPage : feed.replayPage, feed.replayPageSize);
        })
        .catch((error: unknown) => {
          logger.warn({ err: errorMessage(error) }, "live event stream failed to start");
          live.fail(error);
          throw error;
        });
      live.attached.catch(() => undefined); // reported through the target; awaiting is optional
      return live;
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

    /**
     * Each task's newest event after `afterId`, oldest first, a page at most (`pageSize` rows):
     * the replay of `?replay=latest` as one JSON answer (`GET /api/events/changes`).
     */
    changes: (userId: number, afterId: number) => feed.latestPage(userId, afterId),
    pageSize: feed.replayPageSize,

    /** Reads new events now (tests; also what a notification triggers). */
    poke: feed.readNew,

    /**
     * Task events up to `lastEventId` were just committed by this instance: its streams read them
     * now instead of after the NOTIFY's round trip through the database and back (two more turns
     * of a busy event loop), and that NOTIFY then costs no read of its own. While no stream is
     * open here, `lastEventId` is where new streams start: every smaller id is committed by then,
     * as appenders hold the task-events lock until they commit (events/append.ts), so no read is
     * needed (on PGlite no NOTIFY follows).
     */
    committedHere(lastEventId?: number): void {
      if (count > 0) void feed.readNew(lastEventId ?? 0);
      else if (lastEventId !== undefined) feed.advance(lastEventId);
    },

    /** Ends streams past their lifetime now (tests; also what each heartbeat does). */
    endExpired,

    /** Connected streams on this instance. */
    get size() {
      return count;
    },

    /** Stops listening and closes every stream with a short `retry:` so clients move to another instance. */
    async stop(): Promise<void> {
      clearInterval(heartbeat);
      heartbeat = undefined;
      started = undefined;
      await unrevoke?.().catch(() => undefined);
      unrevoke = undefined;
      await feed.stop();
      const goodbye = retryFrame(1_000);
      for (const streams of [...byUser.values()]) {
        for (const stream of [...streams]) stream.end(goodbye);
      }
    },
  };
  return hub;
}

export type EventHub = ReturnType<typeof createEventHub>;
