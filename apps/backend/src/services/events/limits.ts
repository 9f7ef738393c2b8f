/**
 * How many live streams a user may hold on one instance, and how long one may last. The route
 * passes the configured limits (`SSE_MAX_STREAMS_PER_USER`, `SSE_MAX_STREAM_SECONDS`) with each
 * stream it opens.
 */
export interface StreamLimits {
  /** Opening one more ends the user's oldest stream on this instance, so nobody is locked out. */
  maxPerUser: number;
  /** A stream is ended after this long (±10 %); the client reconnects and replays. */
  maxLifetimeMs: number;
}

/**
 * A stream's lifetime, spread ±10 % so streams opened together (a deploy, a network blip) do not
 * all end, and reconnect, at the same moment. `random` is `Math.random` outside tests.
 */
export function jitteredLifetime(maxLifetimeMs: number, random: () => number): number {
  return Math.round(maxLifetimeMs * (0.9 + 0.2 * random()));
}
