import { randomUUID } from "node:crypto";
import { errorSummary } from "../lib/error-summary.ts";
import { isDatabaseUnavailable } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { OutageLog } from "../lib/outage-log.ts";
import type { Metrics } from "../lib/metrics.ts";
import { DATABASE_UNAVAILABLE, INTERNAL_ERROR } from "../schemas/error-codes.ts";
import type { HeaderList } from "./early-headers.ts";

// What every answer of the backend carries and leaves behind, whichever path writes it: the
// app's middleware (request-context.ts, error-handler.ts) or the webhook edge, which serves
// deliveries on the Node request in front of the app (server/webhook-edge.ts). A header, a log
// field or an error body changed here changes in both.

/** Set on every response. */
export const EVERY_RESPONSE: HeaderList = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "no-referrer"],
  ["Cross-Origin-Resource-Policy", "same-site"],
];

/** The request's id: the caller's `X-Request-Id` (at most 64 characters), or a new one. */
export function requestIdOf(header: string | undefined): string {
  return header?.slice(0, 64) ?? randomUUID();
}

/** The headers an answer starts with: its request id, then {@link EVERY_RESPONSE}. */
export function answerHeaders(requestId: string): HeaderList {
  return [["X-Request-Id", requestId], ...EVERY_RESPONSE];
}

// Probes and scrapes come every few seconds: their lines would drown the others.
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);

/** One answered request, as metrics and the access log see it. */
export interface Answered {
  requestId: string;
  method: string;
  /** The route pattern, never the path or query: callbacks and webhooks carry codes, `state` and
   * keys in their query, and paths carry ids. */
  route: string;
  status: number;
  /** `performance.now()` when the request arrived. */
  started: number;
}

/**
 * Counts the request by method, route and status, times it by route, and writes one access-log
 * line at `info` (health probes and metric scrapes at `debug`).
 */
export function recordAnswer(
  { logger, metrics }: { logger: Logger; metrics: Metrics },
  { requestId, method, route, status, started }: Answered,
): void {
  const seconds = (performance.now() - started) / 1000;
  metrics.httpRequests.inc({ method, route, status: String(status) });
  metrics.httpDuration.observe({ route }, seconds);
  const level = QUIET_ROUTES.has(route) ? "debug" : "info";
  if (!logger.isLevelEnabled(level)) return;
  logger[level]({ requestId, method, route, status, ms: Math.round(seconds * 1000) }, "request");
}

/** How long a client waits before retrying while the database is unavailable. */
const DATABASE_RETRY_AFTER_SECONDS = "5";

/** An answer to a failure that no route turned into an API error. */
export interface FailureAnswer {
  status: 500 | 503;
  /** Beside {@link answerHeaders}. */
  headers: HeaderList;
  body: { error: string; message: string; request_id?: string };
}

/**
 * The answer to an error nobody expected, logged without the values a failed query carries:
 * 503 with `Retry-After` while the database is unavailable (clients and the platform retry, so
 * nothing is lost), else 500 naming the request for the logs.
 */
export function failureAnswer(
  error: unknown,
  requestId: string,
  log: { logger: Logger; outages: Pick<OutageLog, "report"> },
): FailureAnswer {
  if (isDatabaseUnavailable(error)) {
    // One warning per outage, not per request (lib/outage-log.ts); each 503 has its access line.
    log.outages.report({ requestId, err: errorSummary(error) });
    return {
      status: 503,
      headers: [["Retry-After", DATABASE_RETRY_AFTER_SECONDS]],
      body: { error: DATABASE_UNAVAILABLE, message: "The database is unavailable; retry shortly." },
    };
  }
  log.logger.error({ requestId, err: errorSummary(error) }, "unhandled error");
  return {
    status: 500,
    headers: [],
    body: {
      error: INTERNAL_ERROR,
      message: "Something went wrong on the server.",
      request_id: requestId,
    },
  };
}
