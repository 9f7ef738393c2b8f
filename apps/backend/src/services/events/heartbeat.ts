import type { Clock } from "../../lib/clock.ts";
import { PING_FRAME } from "./frames.ts";
import { HEARTBEAT_SLICES, type StreamSet } from "./stream-set.ts";

/**
 * Starts the instance's one heartbeat: each tick pings one slice of the streams, so each stream is
 * pinged once per `heartbeatMs` but never all of them in one burst, and ends those of the slice
 * past their lifetime (a stream ends at most one heartbeat late). Replaying streams get no ping:
 * their replay is writing already. Returns the function that stops it.
 */
export function startHeartbeat(
  streams: StreamSet,
  options: { heartbeatMs: number; clock: Clock; expired: Uint8Array },
): () => void {
  let tick = 0;
  const timer = setInterval(() => {
    const slice = streams.slices[tick] ?? new Set();
    tick = (tick + 1) % HEARTBEAT_SLICES;
    const now = options.clock.now();
    for (const stream of slice) {
      if (now >= stream.endsAt) stream.end(options.expired);
      else if (stream.live) stream.write(PING_FRAME);
    }
  }, options.heartbeatMs / HEARTBEAT_SLICES);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}
