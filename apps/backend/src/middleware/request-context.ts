import { randomUUID } from "node:crypto";
import { routePath } from "hono/route";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { withHeaders } from "./early-headers.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";

const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * Request id, metrics and one access-log line per request (at `info`; health probes and metric
 * scrapes at `debug`).
 */
export function requestContext(logger: Logger, metrics: Metrics) {
  return createMiddleware<AppEnv>(async function requestContextMiddleware(c, next) {
    const requestId = c.req.header("x-request-id")?.slice(0, 64) ?? randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    await withHeaders(c, [["X-Request-Id", requestId]], next);
    const route = routePath(c, -1) || "unmatched";
    const seconds = (performance.now() - started) / 1000;
    metrics.httpRequests.inc({ method: c.req.method, route, status: String(c.res.status) });
    metrics.httpDuration.observe({ route }, seconds);
    // Probes and scrapes come every few seconds: their lines would drown the others.
    const level = QUIET_ROUTES.has(route) ? "debug" : "info";
    // The route pattern, never the path or query: callbacks and webhooks carry codes, `state`
    // and keys in their query, and paths carry ids.
    logger[level](
      {
        requestId,
        method: c.req.method,
        route,
        status: c.res.status,
        ms: Math.round(seconds * 1000),
      },
      "request",
    );
  });
}
