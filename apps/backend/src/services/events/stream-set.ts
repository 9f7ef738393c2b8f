import type { Metrics } from "../../lib/metrics.ts";
import type { Stream, StreamRegistry } from "./stream.ts";

/**
 * The heartbeat pings one of this many slices of the streams per tick (heartbeat.ts), so no tick
 * writes to every stream at once: a burst to thousands of streams holds the event loop, and every
 * webhook in flight waits behind it.
 */
export const HEARTBEAT_SLICES = 60;

/**
 * This instance's open streams, by user (fan-out, the per-user limit, revoked sessions) and by
 * heartbeat slice. A stream leaves through `remove`: the set is the registry each stream is given.
 */
export class StreamSet implements StreamRegistry {
  private readonly byUser = new Map<number, Set<Stream>>();
  /** Each stream is in one slice; slices are filled in turn, so they stay the same size. */
  readonly slices: readonly Set<Stream>[] = Array.from(
    { length: HEARTBEAT_SLICES },
    () => new Set<Stream>(),
  );
  private nextSlice = 0;
  private count = 0;

  constructor(private readonly metrics: Pick<Metrics, "sseClients">) {}

  /** Open streams on this instance. */
  get size(): number {
    return this.count;
  }

  add(stream: Stream): void {
    let streams = this.byUser.get(stream.userId);
    if (!streams) this.byUser.set(stream.userId, (streams = new Set()));
    streams.add(stream);
    stream.heartbeatSlice = this.nextSlice;
    this.slices[this.nextSlice]?.add(stream);
    this.nextSlice = (this.nextSlice + 1) % HEARTBEAT_SLICES;
    this.count += 1;
    this.metrics.sseClients.inc();
  }

  remove(stream: Stream): void {
    const streams = this.byUser.get(stream.userId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) this.byUser.delete(stream.userId);
    this.slices[stream.heartbeatSlice]?.delete(stream);
    this.count -= 1;
    this.metrics.sseClients.dec();
  }

  /** The user's streams, oldest first (a Set keeps insertion order); undefined when none. */
  ofUser(userId: number): ReadonlySet<Stream> | undefined {
    return this.byUser.get(userId);
  }

  /** Ends the user's oldest streams until at most `keep` remain. */
  endOldest(userId: number, keep: number, goodbye: Uint8Array): void {
    const streams = [...(this.byUser.get(userId) ?? [])];
    for (const stream of streams.slice(0, Math.max(0, streams.length - keep))) stream.end(goodbye);
  }

  /** Ends every stream past its lifetime at `now`. */
  endExpired(now: number, goodbye: Uint8Array): void {
    // Deleting the entry being visited is safe while iterating a Map or a Set.
    for (const streams of this.byUser.values())
      for (const stream of streams) if (now >= stream.endsAt) stream.end(goodbye);
  }

  /** Ends the streams a revoked session opened. */
  endSession(userId: number, sessionId: string): void {
    for (const stream of [...(this.byUser.get(userId) ?? [])])
      if (stream.sessionId === sessionId) stream.end();
  }

  /** Sends every stream `frame` and sets its position to `id` (Stream.resetTo). */
  resetAll(id: bigint, frame: Uint8Array): void {
    for (const streams of this.byUser.values())
      for (const stream of streams) stream.resetTo(id, frame);
  }

  /** Ends every stream (shutdown). */
  endAll(goodbye: Uint8Array): void {
    for (const streams of [...this.byUser.values()])
      for (const stream of [...streams]) stream.end(goodbye);
  }
}
