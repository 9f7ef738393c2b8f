import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { requireMetricsToken } from "../../middleware/metrics-token.ts";
import { healthz, metrics as metricsRoute, readyz } from "./health.routes.ts";

export function healthRouter({ config, database, lifecycle, metrics }: AppDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(healthz, (c) => c.json({ status: "ok" as const }, 200))
    .openapi(readyz, async (c) => {
      const reachable = await database.ping().then(
        () => true,
        () => false,
      );
      const body = {
        database: reachable ? ("ok" as const) : ("unreachable" as const),
        migrations: lifecycle.migrated ? ("applied" as const) : ("pending" as const),
        shutting_down: lifecycle.shuttingDown,
      };
      const ready = reachable && lifecycle.migrated && !lifecycle.shuttingDown;
      return ready
        ? c.json({ status: "ready" as const, ...body }, 200)
        : c.json({ status: "not_ready" as const, ...body }, 503);
    })
    .openapi({ ...metricsRoute, middleware: requireMetricsToken(config.metricsToken) }, async (c) =>
      c.text(await metrics.registry.metrics(), 200, {
        "Content-Type": metrics.registry.contentType,
      }),
    );
}
