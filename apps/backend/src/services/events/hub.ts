import type { Database } from "../../db/client.ts";
import { type Clock, systemClock } from "../../lib/clock.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { OutageLog } from "../../lib/outage-log.ts";
import { readChanges } from "./changes.ts";
import { createEventFeed, type EventFeed, type FeedEvent, later } from "./feed.ts";
import { endFrame, readyFrame, resetFrame, retryFrame, taskFrame } from "./frames.ts";
import { startHeartbeat } from "./heartbeat.ts";
import { jitteredLifetime, type StreamLimits } from "./limits.ts";
import { resumeStream } from "./resume.ts";
import { StreamSet } from "./stream-set.ts";
import { controllerTarget } from "./stream-target.ts";
import { type LiveStream, Stream } from "./stream.ts";

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
  /** The database outage's one log (lib/outage-log.ts), for the feed's failed reads. */
  outages?: Pick<OutageLog, "report">;
}

/** How {@link EventHub.open} starts a stream. */
export interface OpenOptions {
  /** Replays `id > lastEventId` first; without it the stream starts live. */
  lastEventId?: bigint;
  /** Replays only each task's newest event after `lastEventId` (`?replay=latest`). */
  latestOnly?: boolean;
  /** The session that opened it: the stream ends when that session is revoked. */
  sessionId?: string;
  limits: StreamLimits;
}

// An evicted client that is still alive waits longer before it comes back: with one stream too
// many, live clients then take turns every 30 s instead of evicting each other every 3 s.
const EVICTED_RETRY_MS = 30_000;

/** What opening a stream needs from its hub. */
interface StreamContext {
  streams: StreamSet;
  feed: EventFeed;
  clock: Clock;
  random: () => number;
  retryMs: number;
  /** The `end` frame of a stream evicted by a newer one of its user. */
  evicted: Uint8Array;
  logger: Logger;
  /** Starts the hub (idempotent): a stream attaches once the feed has its position. */
  start: () => Promise<void>;
}

/**
 * Opens a stream for `userId`. Without `lastEventId` it starts live with a `ready` frame naming
 * the resume position; with one it replays `id > lastEventId` from the database first, holding
 * live events back and deduping them by id, or sends a `reset` frame instead when no replay can
 * bring the client up to date (resume.ts). It is attached at once, so nothing that happens from
 * now on is missed; frames wait until a transport claims the stream. Attaching one stream more
 * than `limits.maxPerUser` ends the user's oldest; the heartbeat ends it after its lifetime. Both
 * send an `end` event and a `retry:` first.
 */
function openStream(context: StreamContext, userId: number, options: OpenOptions): LiveStream {
  const { lastEventId, sessionId, limits } = options;
  const endsAt = context.clock.now() + jitteredLifetime(limits.maxLifetimeMs, context.random);
  const live = new Stream(
    context.streams,
    userId,
    sessionId,
    endsAt,
    lastEventId ?? context.feed.cursor,
    lastEventId !== undefined,
  );
  live.attached = context
    .start()
    .then(() => attachStream(context, live, options))
    .catch((error: unknown) => {
      context.logger.warn({ err: errorMessage(error) }, "live event stream failed to start");
      live.fail(error);
      throw error;
    });
  live.attached.catch(() => undefined); // reported through the target; awaiting is optional
  return live;
}

/** Adds a new stream to the hub and writes its first frames: `retry:`, then `ready` or the replay. */
async function attachStream(
  context: StreamContext,
  live: Stream,
  { lastEventId, limits, latestOnly = false }: OpenOptions,
): Promise<void> {
  if (live.closed) return;
  const { streams, feed } = context;
  streams.endOldest(live.userId, limits.maxPerUser - 1, context.evicted);
  streams.add(live);
  live.write(retryFrame(context.retryMs));
  if (lastEventId === undefined) {
    live.lastId = later(live.lastId, feed.cursor);
    live.write(readyFrame(feed.cursor));
  } else await resumeStream(feed, live, lastEventId, latestOnly);
}

/** The instance's feed, handing each event to its user's streams here. */
function feedOf(streams: StreamSet, options: HubOptions): EventFeed {
  return createEventFeed({
    database: options.database,
    logger: options.logger,
    ...(options.catchUpMs === undefined ? {} : { catchUpMs: options.catchUpMs }),
    ...(options.outages === undefined ? {} : { outages: options.outages }),
    listening: () => streams.size > 0,
    dispatch: (event: FeedEvent) => {
      const own = streams.ofUser(event.userId);
      if (!own) return;
      const frame = taskFrame(event.id, event.payload);
      for (const stream of own) stream.deliver(event.id, frame);
    },
    // The database went back under open streams: they reload, as a client resuming ahead would.
    rewound: (head) => {
      streams.resetAll(head, resetFrame("ahead_of_server", head));
    },
  });
}

/**
 * Live task events for this instance's connected clients (DESIGN "A music task's life" step 6):
 * the streams of each user, fed by the instance's one reader of task_events (feed.ts). No
 * per-stream timers and no per-stream queries once live: one shared heartbeat (which also ends
 * streams past their lifetime), one shared catch-up read.
 */
export function createEventHub(options: HubOptions) {
  const { metrics, logger } = options;
  const clock = options.clock ?? systemClock;
  const retryMs = options.retryMs ?? 3_000;
  const expiredFrame = endFrame("max_lifetime", retryMs);
  const streams = new StreamSet(metrics);
  let started: Promise<void> | undefined;
  let stopHeartbeat: (() => void) | undefined;
  let unrevoke: (() => Promise<void>) | undefined;

  const feed = feedOf(streams, options);

  async function begin(): Promise<void> {
    await feed.start();
    unrevoke = await options.revocations?.((userId, sessionId) => {
      streams.endSession(userId, sessionId);
    });
    stopHeartbeat = startHeartbeat(streams, {
      heartbeatMs: options.heartbeatMs ?? 15_000,
      clock,
      expired: expiredFrame,
    });
  }

  function start(): Promise<void> {
    started ??= begin().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return started;
  }

  const context: StreamContext = {
    streams,
    feed,
    clock,
    random: options.random ?? Math.random,
    retryMs,
    evicted: endFrame("too_many_streams", EVICTED_RETRY_MS),
    logger,
    start,
  };

  const hub = {
    /** Starts listening (idempotent; the first stream starts it too when workers are off). */
    start,

    /** Opens a stream for `userId` ({@link openStream}). */
    open: (userId: number, stream: OpenOptions): LiveStream => openStream(context, userId, stream),

    /** Opens a stream onto a Web stream's controller; resolves once it is live (tests). */
    attach: (
      userId: number,
      controller: ReadableStreamDefaultController<Uint8Array>,
      stream: OpenOptions,
    ): Promise<LiveStream> => attachTo(hub.open(userId, stream), controller),

    /** What changed for `userId` after `afterId`, or a reset ({@link readChanges}). */
    changes: (userId: number, afterId: bigint) => readChanges(feed, userId, afterId),

    /** Runs the periodic catch-up read now (tests): new events, or a log gone back. */
    poke: feed.catchUpRound,

    /**
     * Task events up to `lastEventId` were just committed by this instance: its streams read them
     * now instead of after the NOTIFY's round trip through the database and back (two more turns
     * of a busy event loop), and that NOTIFY then costs no read of its own. While no stream is
     * open here, `lastEventId` is where new streams start: every smaller id is committed by then,
     * as appenders hold the task-events lock until they commit (events/append.ts), so no read is
     * needed (on PGlite no NOTIFY follows).
     */
    committedHere(lastEventId?: bigint): void {
      if (streams.size > 0) void feed.readNew(lastEventId ?? 0n);
      else if (lastEventId !== undefined) feed.advance(lastEventId);
    },

    /** Ends streams past their lifetime now (tests; also what each heartbeat does). */
    endExpired: () => {
      streams.endExpired(clock.now(), expiredFrame);
    },

    /** Connected streams on this instance. */
    get size() {
      return streams.size;
    },

    /** Stops listening and closes every stream with a short `retry:` so clients move to another instance. */
    async stop(): Promise<void> {
      stopHeartbeat?.();
      stopHeartbeat = undefined;
      started = undefined;
      await unrevoke?.().catch(() => undefined);
      unrevoke = undefined;
      await feed.stop();
      streams.endAll(retryFrame(1_000));
    },
  };
  return hub;
}

/** Gives an opened stream a Web stream's controller; resolves once it is live. */
async function attachTo(
  live: LiveStream,
  controller: ReadableStreamDefaultController<Uint8Array>,
): Promise<LiveStream> {
  live.claim(controllerTarget(controller));
  await live.attached;
  return live;
}

export type EventHub = ReturnType<typeof createEventHub>;
