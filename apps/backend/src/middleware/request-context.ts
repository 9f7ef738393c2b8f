import { routePath } from "hono/route";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { answerHeaders, recordAnswer, requestIdOf } from "./answer.ts";
import { withHeaders } from "./early-headers.ts";

/**
 * The request id, the headers every answer carries, metrics and one access-log line per request
 * (answer.ts, which the webhook edge uses too).
 */
export function requestContext(logger: Logger, metrics: Metrics) {
  return createMiddleware<AppEnv>(async function requestContextMiddleware(c, next) {
    const requestId = requestIdOf(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    const started = performance.now();
    await withHeaders(c, answerHeaders(requestId), next);
    recordAnswer(
      { logger, metrics },
      {
        requestId,
        method: c.req.method,
        route: routePath(c, -1) || "unmatched",
        status: c.res.status,
        started,
      },
    );
  });
}
