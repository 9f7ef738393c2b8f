import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { messagePage, wantsHtml } from "../lib/html-page.ts";
import type { AppEnv } from "./app-env.ts";
import type { RateLimitStore } from "../services/auth/rate-limits.ts";
import { RATE_LIMITED } from "../schemas/error-codes.ts";

export interface RateLimitOptions {
  /** Names the bucket family: each limited endpoint counts on its own. */
  name: string;
  /** Requests allowed in a burst. */
  burst: number;
  /** Sustained rate: tokens added per minute. */
  perMinute: number;
  store: RateLimitStore;
  /**
   * How many reverse proxies stand in front (TRUST_PROXY): the client address is then read from
   * `X-Forwarded-For` (see {@link clientAddress}). 0: the socket's address.
   */
  trustedProxies?: number;
  /** What is counted, for the refusal's message ("sign-in requests" unless said). */
  what?: string;
}

/**
 * A token bucket per client address and endpoint for the sign-in endpoints and the public share
 * pages (a burst, then a
 * steady rate). The buckets are shared by every instance through the store, so N instances
 * behind a load balancer still allow one limit, not N.
 */
export function rateLimit(options: RateLimitOptions) {
  const { burst, perMinute, store } = options;
  const perMs = perMinute / 60_000;

  return createMiddleware<AppEnv>(async function rateLimitMiddleware(c, next) {
    const key = `${options.name}:${clientAddress(c, options.trustedProxies ?? 0)}`;
    const { allowed, tokens } = await store.take(key, { burst, perMs });
    if (!allowed) {
      const retryAfter = Math.max(1, Math.ceil((1 - tokens) / perMs / 1000));
      c.header("Retry-After", String(retryAfter));
      const message = `Too many ${options.what ?? "sign-in requests"} from this address; try again in ${retryAfter} s.`;
      if (wantsHtml(c)) return c.html(messagePage("Slow down", message), 429);
      return c.json({ error: RATE_LIMITED, message, retry_after_seconds: retryAfter }, 429);
    }
    await next();
  });
}

/**
 * The client's address: the socket's peer, or with `trustedProxies` in front, the entry of
 * `X-Forwarded-For` the outermost trusted proxy wrote, counted from the right (each proxy
 * appends the address it was called from). Entries to its left are whatever the client sent
 * and are never read: taking the first entry, as this did, let every client pick its own
 * address unless the proxy replaced the header (the approach of proxy-addr, Express's
 * `trust proxy` with a hop count). With fewer entries than proxies, the leftmost one.
 * "unknown" when there is no socket (in-process `app.request`).
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  let peer = "unknown";
  try {
    peer = getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // no socket
  }
  if (trustedProxies <= 0) return peer;
  const forwarded = (c.req.header("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  // The chain as seen from here: the client first, each proxy after it, the nearest last.
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedProxies)] ?? peer;
}
