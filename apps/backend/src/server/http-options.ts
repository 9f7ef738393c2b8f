import type { ServerOptions } from "node:http";
import type { Config } from "../env/env.ts";

/**
 * Node's HTTP server options against slow clients. A client that trickles its headers or body
 * (slow-loris) holds a socket and a parser; past `HTTP_REQUEST_TIMEOUT_SECONDS` Node answers 408
 * and closes it. Node's defaults (5 min for the request, 60 s for headers, checked every 30 s)
 * let a few hundred slow sockets stay for minutes. The timeout covers receiving the request
 * only: a live-event stream being written for hours is not cut.
 *
 * An idle keep-alive connection stays open `HTTP_KEEP_ALIVE_SECONDS` (65 s). Node's own default, 5 s,
 * is shorter than the idle timeout of the proxies in front of a backend (nginx's upstream
 * keep-alive and AWS's load balancers: 60 s): a proxy then reuses a connection at the moment Node
 * closes it, and its request is lost (a 502). The side that closes an idle connection must be the
 * one that would otherwise reuse it, so the backend waits longer than any of them.
 */
export function httpServerOptions(config: Pick<Config, "http">): ServerOptions {
  const requestTimeout = config.http.requestTimeoutMs;
  return {
    keepAliveTimeout: config.http.keepAliveMs,
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, 10_000),
    // How often Node looks for connections past those timeouts.
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(requestTimeout / 4))),
  };
}
