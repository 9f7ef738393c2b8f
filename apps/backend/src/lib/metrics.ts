import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The backend's Prometheus metrics, one registry per app instance (tests run several apps in
 * one process). Exposed at `/metrics`, with the default process and runtime metrics.
 */
export function createMetrics() {
  const registry = new Registry();
  // Process (CPU, memory, file descriptors), heap, GC and event-loop lag, as the usual `process_…`
  // and `nodejs_…` (what Node.js dashboards expect), beside the backend's own.
  collectDefaultMetrics({ register: registry });
  const metrics = {
    registry,
    httpRequests: new Counter({
      name: "overture_http_requests_total",
      help: "HTTP requests answered, by method, route and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "overture_http_request_duration_seconds",
      help: "HTTP request duration by route",
      labelNames: ["route"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    webhookOutcomes: new Counter({
      name: "overture_webhook_deliveries_total",
      help: "Webhook deliveries by outcome (accepted, duplicate, rejected, unavailable) and reason",
      labelNames: ["outcome", "reason"] as const,
      registers: [registry],
    }),
    webhookBatchSize: new Histogram({
      name: "overture_webhook_commit_batch_size",
      help: "Webhook events committed per shared transaction (group commit)",
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers: [registry],
    }),
    refreshes: new Counter({
      name: "overture_grant_refreshes_total",
      help: "OAuth grant refreshes by outcome (refreshed, revoked, failed, reused)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    mints: new Counter({
      name: "overture_proxy_token_mints_total",
      help: "Proxy tokens minted from the access-token detail endpoint, by outcome",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    polls: new Counter({
      name: "overture_platform_polls_total",
      help: "Task status polls sent to the platform by the reconciler, by outcome",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    sseClients: new Gauge({
      name: "overture_sse_clients",
      help: "Connected live-event (SSE) clients on this instance",
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: "overture_task_queue_depth",
      help: "Tasks kept in the local queue waiting for platform quota",
      registers: [registry],
    }),
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
