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
   * Read the client address from the first `X-Forwarded-For` entry. Only behind a proxy that
   * sets it: otherwise any client picks its own address and escapes the limit.
   */
  trustForwardedFor?: boolean;
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
    const key = `${options.name}:${clientAddress(c, options.trustForwardedFor ?? false)}`;
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
