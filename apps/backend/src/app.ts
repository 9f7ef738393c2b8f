import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "./middleware/app-env.ts";
import type { AppDeps } from "./services/index.ts";
import { apiBodyLimit } from "./middleware/body-limit.ts";
import { compression } from "./middleware/compression.ts";
import { errorHandler } from "./middleware/error-handler.ts";
import { queryText } from "./middleware/query-text.ts";
import { requestContext } from "./middleware/request-context.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { docsPage, type OpenApiDocument } from "./routes/docs/docs.page.ts";
import { healthRouter } from "./routes/health/health.handlers.ts";
import { eventsRouter } from "./routes/events/events.handlers.ts";
import { quotaRouter } from "./routes/quota/quota.handlers.ts";
import { archiveRouter } from "./routes/archive/archive.handlers.ts";
import { rejectionsRouter } from "./routes/rejections/rejections.handlers.ts";
import { tasksRouter } from "./routes/tasks/tasks.handlers.ts";
import { libraryRouter } from "./routes/library/library.handlers.ts";
import { sharesRouter } from "./routes/shares/shares.handlers.ts";
import { webhooksRouter } from "./routes/webhooks/webhooks.handlers.ts";
import { extensionCorsRoutes } from "./middleware/cors.ts";
import type { SseTakeover } from "./server/sse-takeover.ts";
import { accountRouter } from "./routes/account/account.handlers.ts";
import { authRouter } from "./routes/auth/auth.handlers.ts";
import { credentialsRouter } from "./routes/credentials/credentials.handlers.ts";
import { deviceRouter } from "./routes/device/device.handlers.ts";
import { relayRouter } from "./routes/relay/relay.handlers.ts";
import { NOT_FOUND } from "./schemas/error-codes.ts";

/**
 * Builds the backend's HTTP app from injected dependencies. Pure: opens nothing and starts no
 * timers, so tests call `app.request()` in-process; `backend.ts` owns the runtime around it.
 * Live-event responses are offered to `takeover`, for a Node server that serves them itself.
 */
export function createApp(deps: AppDeps, takeover: Pick<SseTakeover, "offer">) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(securityHeaders());
  // What the extension and the share page read; not the webhook intake (small bodies, hot path).
  for (const path of ["/api/*", "/s/*", "/docs", "/openapi.json"]) app.use(path, compression());
  app.use("/api/*", queryText());
  const bodyLimit = apiBodyLimit();
  app.use("/api/*", bodyLimit);
  app.use("/auth/*", bodyLimit);
  app.onError(errorHandler(deps.logger, deps.outages));
  app.notFound((c) =>
    c.json({ error: NOT_FOUND, message: `No route for ${c.req.method} ${c.req.path}` }, 404),
  );

  const routes = app
    .route("/", healthRouter(deps))
    .route("/", extensionCorsRoutes(deps.config.extension.origins))
    .route("/", authRouter(deps))
    .route("/", accountRouter(deps))
    .route("/", credentialsRouter(deps))
    .route("/", tasksRouter(deps))
    .route("/", libraryRouter(deps))
    .route("/", sharesRouter(deps))
    .route("/", quotaRouter(deps))
    .route("/", archiveRouter(deps))
    .route("/", eventsRouter(deps, takeover))
    .route("/", webhooksRouter(deps))
    .route("/", rejectionsRouter(deps))
    .route("/", deviceRouter(deps))
    .route("/", relayRouter(deps));

  const documentInfo = {
    openapi: "3.1.0",
    info: {
      title: "Overture backend",
      version: "0.1.0",
      description: "The OAuth confidential client behind the Overture extension.",
    },
  };
  app.doc31("/openapi.json", documentInfo);
  app.get("/docs", (c) =>
    c.html(docsPage(app.getOpenAPI31Document(documentInfo) as OpenApiDocument)),
  );
  return routes;
}

/** The backend's route types, for the extension's typed client (`hono/client`). */
export type AppType = ReturnType<typeof createApp>;
