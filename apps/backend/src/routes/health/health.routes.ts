import { createRoute, z } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";

const tags = ["Health"];

export const healthz = createRoute({
  method: "get",
  path: "/healthz",
  tags,
  summary: "Liveness: the process is up",
  responses: {
    200: {
      description: "Alive",
      content: { "application/json": { schema: z.object({ status: z.literal("ok") }) } },
    },
  },
});

const readiness = z.object({
  status: z.enum(["ready", "not_ready"]),
  database: z.enum(["ok", "unreachable"]),
  migrations: z.enum(["applied", "pending"]),
  shutting_down: z.boolean(),
});

export const readyz = createRoute({
  method: "get",
  path: "/readyz",
  tags,
  summary: "Readiness: database reachable and migrations applied",
  responses: {
    200: { description: "Ready to serve", content: { "application/json": { schema: readiness } } },
    503: { description: "Not ready", content: { "application/json": { schema: readiness } } },
  },
});

export const metrics = createRoute({
  method: "get",
  path: "/metrics",
  tags,
  summary:
    "Prometheus metrics: requests, webhook outcomes, refreshes, mints, polls, SSE clients, queue depth",
  description:
    "Public unless `METRICS_TOKEN` is set; then it needs `Authorization: Bearer <METRICS_TOKEN>`.",
  responses: {
    200: {
      description: "Prometheus text exposition format",
      content: { "text/plain": { schema: z.string() } },
    },
    401: {
      description: "`unauthenticated`: `METRICS_TOKEN` is set and the bearer is missing or wrong",
      content: { "application/json": { schema: errorBody } },
    },
  },
});
