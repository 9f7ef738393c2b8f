import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { messagePage, wantsHtml } from "../lib/html-page.ts";
import type { AppEnv } from "../app-env.ts";
import type { Clock } from "../lib/clock.ts";

export interface RateLimitOptions {
  /** Requests allowed in a burst. */
  burst: number;
  /** Sustained rate: tokens added per minute. */
  perMinute: number;
  clock: Clock;
  /**
   * Read the client address from the first `X-Forwarded-For` entry. Only behind a proxy that
   * sets it: otherwise any client picks its own address and escapes the limit.
   */
  trustForwardedFor?: boolean;
}

interface Bucket {
  tokens: number;
  at: number;
}

// Past this many tracked clients, full (idle) buckets are dropped so memory stays bounded.
const PRUNE_ABOVE = 10_000;

/**
 * A token bucket per client address for the sign-in endpoints (a burst, then a steady rate).
 * The buckets live in this process: with N instances behind a load balancer a client gets up to
 * N times the limit. That is enough against a runaway client or casual guessing (codes and
 * `state` are 256-bit random anyway); a global limit belongs in the load balancer.
 */
export function rateLimit(options: RateLimitOptions) {
  const { burst, perMinute, clock } = options;
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, Bucket>();

  function prune(now: number): void {
    if (buckets.size <= PRUNE_ABOVE) return;
    for (const [key, bucket] of buckets) {
      if (bucket.tokens + (now - bucket.at) * perMs >= burst) buckets.delete(key);
    }
  }

  return createMiddleware<AppEnv>(async function rateLimitMiddleware(c, next) {
    const now = clock.now();
    const key = clientAddress(c, options.trustForwardedFor ?? false);
    const previous = buckets.get(key);
    const tokens = previous
      ? Math.min(burst, previous.tokens + (now - previous.at) * perMs)
      : burst;
    if (tokens < 1) {
      buckets.set(key, { tokens, at: now });
      const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
      c.header("Retry-After", String(retryAfter));
      const message = `Too many sign-in requests from this address; try again in ${retryAfter} s.`;
      if (wantsHtml(c)) return c.html(messagePage("Slow down", message), 429);
      return c.json({ error: "rate_limited", message, retry_after_seconds: retryAfter }, 429);
    }
    buckets.set(key, { tokens: tokens - 1, at: now });
    prune(now);
    await next();
  });
}

/** The socket's peer address; "unknown" when there is no socket (in-process `app.request`). */
export function clientAddress(c: Context, trustForwardedFor: boolean): string {
  if (trustForwardedFor) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
