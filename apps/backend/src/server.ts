import { ServerResponse } from "node:http";
import { serve, type Http2Bindings, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Backend } from "./backend.ts";
import { httpServerOptions } from "./lib/http-server-options.ts";
import { takeOverLiveResponse } from "./services/events/response.ts";

export interface RunningServer {
  /** The address it listens on, e.g. http://127.0.0.1:8787 */
  url: string;
  /** Graceful stop: refuse new connections, finish in-flight requests, stop workers, close the DB. */
  close(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 10_000;

/** Listens with the backend's app, starts its workers, and knows how to stop gracefully. */
export async function listen(backend: Backend, host: string, port: number): Promise<RunningServer> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const instance = serve(
      {
        fetch: nodeFetch(backend),
        hostname: host,
        port,
        // Slow clients (slow-loris) are cut: lib/http-server-options.ts.
        serverOptions: httpServerOptions(backend.deps.config),
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
        // Stop accepting first; streams are closed by backend.stop() with a retry hint, and
        // in-flight webhooks finish before the database closes.
        const drained = new Promise<void>((resolve) =>
          server.close(() => {
            resolve();
          }),
        );
        await backend.stop();
        await Promise.race([
          drained,
          new Promise((resolve) => setTimeout(resolve, DRAIN_TIMEOUT_MS).unref()),
        ]);
      })();
      return closing;
    },
  };
}

/**
 * The app's fetch, with live-event responses served straight on the Node response (their Web
 * stream is never read: see services/events/response.ts). Everything else passes through.
 */
export function nodeFetch(backend: Backend) {
  const fetch = backend.app.fetch;
  const serveLive = (response: Response, outgoing: unknown) =>
    outgoing instanceof ServerResponse && takeOverLiveResponse(response, outgoing as ServerResponse)
      ? RESPONSE_ALREADY_SENT
      : response;
  return (request: Request, env: HttpBindings | Http2Bindings) => {
    const answer = fetch(request, env);
    return answer instanceof Promise
      ? answer.then((response) => serveLive(response, env.outgoing))
      : serveLive(answer, env.outgoing);
  };
}

/** Closes `servers` on SIGINT/SIGTERM, then exits. */
export function closeOnSignals(
  servers: { close(): Promise<void> }[],
  log: (message: string) => void,
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    void Promise.allSettled(servers.map((server) => server.close())).then(() => process.exit(0));
  };
  process.on("SIGINT", () => {
    stop("SIGINT");
  });
  process.on("SIGTERM", () => {
    stop("SIGTERM");
  });
}
