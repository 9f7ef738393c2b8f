import type { Database } from "../../db/client.ts";
import { RELAY_DELIVERIES_CHANNEL } from "../../db/channels.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import { errorMessage } from "../../lib/error-summary.ts";
import type { Logger } from "../../lib/logger.ts";
import type { RelayBuffer } from "./buffer.ts";
import { endFrame, type EndReason, PING_FRAME, readyFrame, retryFrame } from "./frames.ts";
import type { RelayListeners } from "./listeners.ts";
import { RelayStream } from "./stream.ts";

/** Streams of one channel on one instance; one more ends the oldest (a forgotten terminal). */
export const LISTENERS_PER_CHANNEL = 4;
/** Every tick: the catch-up read, lease renewal, lifetimes; every third, a ping. */
const TICK_MS = 5_000;
const PING_EVERY_TICKS = 3;
const PRUNE_EVERY_TICKS = 12;
const RETRY_MS = 3_000;

export interface RelayStreamsDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, "sse" | "relay">;
  buffer: RelayBuffer;
  listeners: RelayListeners;
  /** Ends the streams of a session revoked on any instance (the session service's LISTEN). */
  revocations: (
    onRevoked: (userId: number, sessionId: string) => void,
  ) => Promise<() => Promise<void>>;
  /** Deletes what outlived its use (old deliveries, leases, device codes): once a minute. */
  prune: () => Promise<void>;
  random?: () => number;
}

/** How a listener opens a channel's stream. */
export interface OpenRelayStream {
  channelId: string;
  userId: number;
  sessionId: string;
  /** Resume after this delivery id (Last-Event-ID); without it the stream starts at the newest. */
  lastEventId?: number;
}

/**
 * This instance's listeners' streams, by channel. Woken by the NOTIFY of a stored delivery (from
 * any instance), by a catch-up read every few seconds (a notification missed while the LISTEN
 * connection was down), and at start; each stream then reads what it has not written yet.
 */
export function createRelayStreams(deps: RelayStreamsDeps) {
  const { buffer, listeners, clock, logger } = deps;
  const random = deps.random ?? Math.random;
  const registry = streamRegistry(deps);
  const { byChannel, all, pump } = registry;
  const maxQueuedBytes = Math.max(8 * 1024 * 1024, 2 * deps.config.relay.bufferBytes);
  let timer: NodeJS.Timeout | undefined;
  let started: Promise<void> | undefined;
  let ticks = 0;
  let unlisten: (() => Promise<void>) | undefined;
  let unrevoke: (() => Promise<void>) | undefined;

  async function tick(): Promise<void> {
    ticks += 1;
    await relayRound(deps, registry, ticks);
  }

  async function begin(): Promise<void> {
    unlisten = await deps.database.listen(RELAY_DELIVERIES_CHANNEL, registry.notified);
    unrevoke = await deps.revocations(registry.endSession);
    timer = setInterval(() => {
      tick().catch((error: unknown) => {
        logger.warn({ err: errorMessage(error) }, "relay streams round failed");
      });
    }, TICK_MS);
    timer.unref();
  }

  function start(): Promise<void> {
    started ??= begin().catch((error: unknown) => {
      started = undefined;
      throw error;
    });
    return started;
  }

  return {
    /** Starts listening (idempotent; the first stream starts it too when workers are off). */
    start,

    /**
     * Opens a listener's stream: its position and lease are stored before it answers, so a
     * delivery accepted from then on reaches it. A fresh stream starts after the channel's
     * newest delivery (read before the lease, so none accepted for it is skipped).
     */
    async open(options: OpenRelayStream): Promise<ReadableStream<Uint8Array>> {
      const { channelId, lastEventId } = options;
      await start();
      const position = lastEventId ?? (await buffer.newest([channelId])).get(channelId) ?? 0;
      const listenerId = await listeners.open(channelId);
      const lifetime = deps.config.sse.maxLifetimeMs * (0.9 + 0.2 * random());
      const stream = new RelayStream(
        channelId,
        options.userId,
        options.sessionId,
        listenerId,
        clock.now() + lifetime,
        position,
        maxQueuedBytes,
        registry.forget,
      );
      const body = stream.body();
      registry.add(stream);
      stream.write(retryFrame(RETRY_MS));
      if (lastEventId === undefined) stream.write(readyFrame(channelId, position));
      stream.started = true;
      pump(stream);
      return body;
    },

    /** Ends the channel's streams here (it was deleted; other instances notice at their next renewal). */
    endChannel(channelId: string): void {
      endEach([...(byChannel.get(channelId) ?? [])], "channel_gone");
    },

    /** One round now (tests; the timer runs it every few seconds). */
    tick,

    /** Streams open on this instance. */
    get size(): number {
      return all().length;
    },

    /** Ends every stream with a short retry so its listener reconnects to another instance. */
    endAll(): void {
      endEach(all(), undefined, 1_000);
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      started = undefined;
      endEach(all(), undefined, 1_000);
      await Promise.all([...registry.closing]);
      await unlisten?.().catch(() => undefined);
      await unrevoke?.().catch(() => undefined);
      unlisten = unrevoke = undefined;
    },
  };
}

/** This instance's streams by channel: added, woken to read, forgotten with their lease. */
function streamRegistry({
  buffer,
  listeners,
  logger,
}: Pick<RelayStreamsDeps, "buffer" | "listeners" | "logger">) {
  const byChannel = new Map<string, Set<RelayStream>>();
  const all = () => [...byChannel.values()].flatMap((streams) => [...streams]);
  const pump = (stream: RelayStream) => {
    stream.pump(buffer).catch((error: unknown) => {
      // The next catch-up read tries again.
      logger.warn({ err: errorMessage(error) }, "relay stream read failed");
    });
  };

  /** Lease deletions in flight: `stop` waits for them before the database closes. */
  const closing = new Set<Promise<void>>();

  function forget(stream: RelayStream): void {
    const streams = byChannel.get(stream.channelId);
    if (streams?.delete(stream) && streams.size === 0) byChannel.delete(stream.channelId);
    const closed = listeners
      .close([stream.listenerId])
      .catch((error: unknown) => {
        // The lease runs out by itself.
        logger.warn({ err: errorMessage(error) }, "relay listener could not be closed");
      })
      .finally(() => closing.delete(closed));
    closing.add(closed);
  }

  /** A NOTIFY said a delivery was stored: the streams of its channel behind it read. */
  function notified(payload: string): void {
    const colon = payload.lastIndexOf(":");
    const id = Number(payload.slice(colon + 1));
    for (const stream of byChannel.get(payload.slice(0, colon)) ?? [])
      if (id > stream.lastId) pump(stream);
  }

  /** Adds a stream to its channel's; one more than LISTENERS_PER_CHANNEL ends the oldest. */
  function add(stream: RelayStream): void {
    let streams = byChannel.get(stream.channelId);
    if (!streams) byChannel.set(stream.channelId, (streams = new Set()));
    streams.add(stream);
    endEach(
      [...streams].slice(0, Math.max(0, streams.size - LISTENERS_PER_CHANNEL)),
      "too_many_listeners",
    );
  }

  /** Ends the streams of a session revoked on any instance. */
  const endSession = (userId: number, sessionId: string) => {
    endEach(all().filter((s) => s.userId === userId && s.sessionId === sessionId));
  };

  return { byChannel, closing, all, pump, forget, add, notified, endSession };
}

type StreamRegistry = ReturnType<typeof streamRegistry>;

/**
 * One round of the timer (`ticks` counts them): a prune now and then, streams past their
 * lifetime ended, a ping every few rounds, the leases renewed (a deleted channel's streams end),
 * and a catch-up read for every stream behind its channel's newest delivery.
 */
async function relayRound(
  deps: Pick<RelayStreamsDeps, "prune" | "clock" | "logger" | "listeners" | "buffer">,
  registry: StreamRegistry,
  ticks: number,
): Promise<void> {
  // A failed prune waits for the next one; the leases below must be renewed regardless.
  if (ticks % PRUNE_EVERY_TICKS === 0)
    await deps.prune().catch((error: unknown) => {
      deps.logger.warn({ err: errorMessage(error) }, "relay prune failed");
    });
  const streams = registry.all();
  if (streams.length === 0) return;
  const now = deps.clock.now();
  endEach(
    streams.filter((s) => now >= s.endsAt),
    "max_lifetime",
  );
  if (ticks % PING_EVERY_TICKS === 0) for (const stream of streams) stream.write(PING_FRAME);
  const open = registry.all();
  const gone = await deps.listeners.renew(open.map((s) => s.listenerId));
  endEach(
    open.filter((s) => gone.has(s.listenerId)),
    "channel_gone",
  );
  const newest = await deps.buffer.newest([...registry.byChannel.keys()]);
  for (const stream of registry.all())
    if ((newest.get(stream.channelId) ?? 0) > stream.lastId) registry.pump(stream);
}

/** Ends `streams` with `reason` (or a bare retry, to reconnect elsewhere) and a retry hint of `retryMs`. */
function endEach(streams: RelayStream[], reason?: EndReason, retryMs = RETRY_MS): void {
  const goodbye = reason ? endFrame(reason, retryMs) : retryFrame(retryMs);
  for (const stream of streams) stream.end(goodbye);
}

export type RelayStreams = ReturnType<typeof createRelayStreams>;
