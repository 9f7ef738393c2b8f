import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "../env/env.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { OutageLog } from "../lib/outage-log.ts";
import { answerHeaders, failureAnswer, recordAnswer, requestIdOf } from "../middleware/answer.ts";
import type { HeaderList } from "../middleware/early-headers.ts";
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
 * intake and answers as the app's route (routes/webhooks), with the headers, request id,
 * metrics, access log and error bodies of the app's middleware (middleware/answer.ts), without
 * building a Fetch Request and Response per delivery or running the router and middleware —
 * the share of a delivery's CPU the intake's hot path can still give back. Only the plain case
 * is taken: a declared Content-Length within the limit and at most one `k`. Anything else
 * (chunked, too large, an odd query, other methods, shutting down) returns false and goes to
 * the app, whose route handles every case.
 */
export function webhookEdge(deps: WebhookEdgeDeps) {
  const { logger } = deps;
  const maxBytes = deps.config.webhook.maxBodyBytes;
  const origin = new URL(deps.config.publicUrl).origin;

  async function serve(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const started = performance.now();
    const header = req.headers["x-request-id"];
    const requestId = requestIdOf(typeof header === "string" ? header : undefined);
    let status: number;
    try {
      const body = await readBody(req);
      const result = await deps.services.webhookIntake.handle({
        url: origin + url,
        headers: req.headers,
        body,
      });
      status = result.status;
      writeJson(res, status, answerHeaders(requestId), result.body);
    } catch (error) {
      if (error === CLIENT_GONE) return; // nobody to answer, nothing was handed to the intake
      const failure = failureAnswer(error, requestId, { logger, outages: deps.outages });
      status = failure.status;
      writeJson(res, status, [...answerHeaders(requestId), ...failure.headers], failure.body);
    }
    recordAnswer(deps, { requestId, method: "POST", route: ROUTE, status, started });
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

/** Writes a JSON answer with `headers`, as `c.json()` would (Content-Type, Content-Length). */
function writeJson(res: ServerResponse, status: number, headers: HeaderList, body: unknown): void {
  const text = JSON.stringify(body);
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  flat.push("Content-Type", "application/json", "Content-Length", String(Buffer.byteLength(text)));
  res.writeHead(status, flat);
  res.end(text);
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
