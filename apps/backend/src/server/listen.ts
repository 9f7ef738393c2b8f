import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  ServerResponse,
  type ServerOptions,
} from "node:http";
import { serve, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Config } from "../env/env.ts";
import { SHUTTING_DOWN } from "../schemas/error-codes.ts";
import { httpServerOptions } from "./http-options.ts";
import type { SseTakeover } from "./sse-takeover.ts";

/** What the server needs of a backend (`createBackend` makes one). */
export interface Servable {
  app: {
    fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;
  };
  /** The live-event responses the app offers to be served on the Node response. */
  takeover: Pick<SseTakeover, "serve">;
  /** Requests served on the Node request before the app (webhook-edge.ts); true when taken. */
  edge?: (request: IncomingMessage, response: ServerResponse) => boolean;
  deps: { config: Pick<Config, "http">; lifecycle: { readonly shuttingDown: boolean } };
  start(): Promise<void>;
  beginShutdown(): Promise<void>;
  stop(): Promise<void>;
}

export interface RunningServer {
  /** The address it listens on, e.g. http://127.0.0.1:8787 */
  url: string;
  /** Graceful stop: refuse new connections, finish in-flight requests, stop workers, close the DB. */
  close(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 10_000;
const IDLE_CLOSE_EVERY_MS = 50;

/** Listens with the backend's app, starts its workers, and knows how to stop gracefully. */
export async function listen(
  backend: Servable,
  host: string,
  port: number,
): Promise<RunningServer> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const instance = serve(
      {
        fetch: nodeFetch(backend),
        hostname: host,
        port,
        // Slow clients (slow-loris) are cut: http-options.ts.
        serverOptions: httpServerOptions(backend.deps.config),
        ...(backend.edge ? { createServer: withEdge(backend.edge) } : {}),
      },
      () => {
        resolve(instance);
      },
    );
    instance.once("error", reject);
  });
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  await backend.start();
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${boundPort}`,
    close() {
      closing ??= (async () => {
        // 1. No new connections; idle keep-alive ones are closed (Node's server.close does both).
        const drained = new Promise<void>((resolve) =>
          server.close(() => {
            resolve();
          }),
        );
        // 2. Live streams end with a retry hint, and requests that still arrive on an open
        //    connection are answered 503 (nodeFetch): clients move to another instance.
        await backend.beginShutdown();
        // 3. Requests already in flight finish while the database is still open (bounded). Node
        //    keeps their connections open once answered (idle until HTTP_KEEP_ALIVE_SECONDS):
        //    those are closed as they go idle, so the drain ends with the last answer.
        const idleCloser = setInterval(() => {
          if ("closeIdleConnections" in server) server.closeIdleConnections();
        }, IDLE_CLOSE_EVERY_MS);
        await Promise.race([
          drained,
          new Promise((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS).unref()),
        ]);
        clearInterval(idleCloser);
        // 4. What is left is cut; only then do the workers stop and the database close.
        if ("closeAllConnections" in server) server.closeAllConnections();
        await backend.stop();
      })();
      return closing;
    },
  };
}

/**
 * The app's fetch, with the live-event responses it offers served straight on the Node response
 * (their Web stream is never read: sse-takeover.ts). Everything else passes through; during
 * the drain a request that still arrives on an open connection is told to go elsewhere.
 */
export function nodeFetch(backend: Pick<Servable, "app" | "takeover" | "deps">) {
  const fetch = backend.app.fetch;
  const { takeover } = backend;
  const { lifecycle } = backend.deps;
  const serveLive = (response: Response, outgoing: unknown) =>
    outgoing instanceof ServerResponse && takeover.serve(response, outgoing as ServerResponse)
      ? RESPONSE_ALREADY_SENT
      : response;
  return (request: Request, env: HttpBindings | Http2Bindings) => {
    if (lifecycle.shuttingDown) return shuttingDown();
    const answer = fetch(request, env);
    return answer instanceof Promise
      ? answer.then((response) => serveLive(response, env.outgoing))
      : serveLive(answer, env.outgoing);
  };
}

/** Node's `createServer` with `edge` in front of the app's request listener. */
function withEdge(edge: NonNullable<Servable["edge"]>) {
  return ((options: ServerOptions, listener: RequestListener) =>
    createServer(options, (request, response) => {
      if (!edge(request, response)) listener(request, response);
    })) as unknown as typeof createServer;
}

/** A request that arrived on an open connection during the drain: try again elsewhere. */
function shuttingDown(): Response {
  return Response.json(
    { error: SHUTTING_DOWN, message: "This instance is shutting down; retry shortly." },
    { status: 503, headers: { Connection: "close", "Retry-After": "1" } },
  );
}

/**
 * Closes `servers` on SIGINT/SIGTERM, then exits. The last line logged says it stopped, so an
 * operator reading the log can tell a completed shutdown from a process killed mid-way.
 */
export function closeOnSignals(
  servers: { close(): Promise<void> }[],
  log: (message: string) => void,
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    void Promise.allSettled(servers.map((server) => server.close())).then((closed) => {
      const failures = closed.flatMap((result) =>
        result.status === "rejected" ? [String(result.reason)] : [],
      );
      log(failures.length === 0 ? "stopped" : `stopped; closing failed: ${failures.join("; ")}`);
      process.exit(0);
    });
  };
  process.on("SIGINT", () => {
    stop("SIGINT");
  });
  process.on("SIGTERM", () => {
    stop("SIGTERM");
  });
}
