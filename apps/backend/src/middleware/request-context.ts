import { randomUUID } from "node:crypto";
import { routePath } from "hono/route";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env.ts";
import { withHeaders } from "../server/early-headers.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";

/**
 * Request id, metrics and one access-log line per request. Logs the path only, never the query:
 * OAuth callbacks and webhooks carry codes, `state` and keys there.
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
    if (route !== "/healthz" && route !== "/metrics") {
      logger.debug(
        {
          requestId,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(seconds * 1000),
        },
        "request",
      );
    }
  });
}
