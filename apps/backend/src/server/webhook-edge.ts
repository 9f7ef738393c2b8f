import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "../env/env.ts";
import { errorSummary } from "../lib/error-summary.ts";
import { isDatabaseUnavailable } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { OutageLog } from "../lib/outage-log.ts";
import type { Metrics } from "../lib/metrics.ts";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_BODY,
  internalErrorBody,
} from "../middleware/error-handler.ts";
import { EVERY_RESPONSE } from "../middleware/security-headers.ts";
import type { Delivery, IntakeAnswer } from "../services/intake/index.ts";

const ROUTE = "/webhooks/platform";

/** What the edge needs of a backend (`createBackend`'s deps have it). */
export interface WebhookEdgeDeps {
  config: Pick<Config, "webhook" | "publicUrl">;
  lifecycle: { readonly shuttingDown: boolean };
  logger: Logger;
  metrics: Metrics;
  outages: Pick<OutageLog, "report">;
  services: { webhookIntake: { handle(delivery: Delivery): Promise<IntakeAnswer> } };
}

/**
 * `POST /webhooks/platform` served straight on the Node request, in front of the app: the same
 * intake, answers, headers, metrics and access log as the app's route (routes/webhooks), without
 * building a Fetch Request and Response per delivery or running the router and middleware —
 * the share of a delivery's CPU the intake's hot path can still give back. Only the plain case
 * is taken: a declared Content-Length within the limit and at most one `k`. Anything else
 * (chunked, too large, an odd query, other methods, shutting down) returns false and goes to
 * the app, whose route handles every case.
 */
export function webhookEdge(deps: WebhookEdgeDeps) {
  const { logger, metrics } = deps;
  const maxBytes = deps.config.webhook.maxBodyBytes;
  const origin = new URL(deps.config.publicUrl).origin;

  function answer(
    res: ServerResponse,
    requestId: string,
    status: number,
    body: unknown,
    extra?: readonly (readonly [string, string])[],
  ): void {
    const text = JSON.stringify(body);
    const headers = ["X-Request-Id", requestId];
    for (const [name, value] of EVERY_RESPONSE) headers.push(name, value);
    if (extra) for (const [name, value] of extra) headers.push(name, value);
    headers.push(
      "Content-Type",
      "application/json",
      "Content-Length",
      String(Buffer.byteLength(text)),
    );
    res.writeHead(status, headers);
    res.end(text);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const started = performance.now();
    const header = req.headers["x-request-id"];
    const requestId = typeof header === "string" ? header.slice(0, 64) : randomUUID();
    let status: number;
    try {
      const body = await readBody(req);
      const result = await deps.services.webhookIntake.handle({
        url: origin + url,
        headers: req.headers,
        body,
      });
      status = result.status;
      answer(res, requestId, status, result.body);
    } catch (error) {
      if (error === CLIENT_GONE) return; // nobody to answer, nothing was handed to the intake
      if (isDatabaseUnavailable(error)) {
        deps.outages.report({ requestId, err: errorSummary(error) });
        status = 503;
        answer(res, requestId, status, DATABASE_UNAVAILABLE_BODY, [
          ["Retry-After", DATABASE_RETRY_AFTER_SECONDS],
        ]);
      } else {
        logger.error({ requestId, err: errorSummary(error) }, "unhandled error");
        status = 500;
        answer(res, requestId, status, internalErrorBody(requestId));
      }
    }
    const seconds = (performance.now() - started) / 1000;
    metrics.httpRequests.inc({ method: "POST", route: ROUTE, status: String(status) });
    metrics.httpDuration.observe({ route: ROUTE }, seconds);
    if (logger.isLevelEnabled("info")) {
      logger.info(
        { requestId, method: "POST", route: ROUTE, status, ms: Math.round(seconds * 1000) },
        "request",
      );
    }
  }

  /** Serves the request and answers true, or answers false and leaves it to the app. */
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== "POST" || deps.lifecycle.shuttingDown) return false;
    const url = req.url ?? "";
    if (!(url.startsWith(ROUTE) && (url.length === ROUTE.length || url[ROUTE.length] === "?")))
      return false;
    const length = Number(req.headers["content-length"] ?? Number.NaN);
    if (!Number.isInteger(length) || length < 0 || length > maxBytes) return false;
    if (req.headers["transfer-encoding"] !== undefined) return false;
    if (!plainQuery(url)) return false;
    void serve(req, res, url);
    return true;
  };
}

/**
 * A query the route's validation would pass as the edge reads it: no escapes (a name could be
 * an escaped `k`) and at most one `k` (a repeated one is refused by the route, 400).
 */
function plainQuery(url: string): boolean {
  const start = url.indexOf("?");
  if (start < 0) return true;
  const query = url.slice(start + 1);
  if (query.includes("%") || query.includes("#")) return false;
  let keys = 0;
  for (const pair of query.split("&")) if (pair === "k" || pair.startsWith("k=")) keys += 1;
  return keys <= 1;
}

const CLIENT_GONE = new Error("the client closed the request before its body was read");

/** The body's bytes; Node's parser delivers exactly the declared Content-Length. */
function readBody(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const [only] = chunks;
      resolve(chunks.length === 1 && only ? only : Buffer.concat(chunks));
    });
    req.on("error", reject);
    // A client that goes away mid-body (or is cut by the request timeout) ends without "end".
    req.on("close", () => {
      if (!req.complete) reject(CLIENT_GONE);
    });
  });
}
