import { Hono } from "hono";
import type { EmulatorContext } from "../context.ts";
import type { EmulatorControl } from "../control/handle.ts";
import { authorizeRoutes } from "./authorize.ts";
import { controlRoutes } from "./control.ts";
import { fileRoutes } from "./files.ts";
import { openRoutes } from "./open.ts";
import { taskRoutes } from "./tasks.ts";
import { tokenRoutes } from "./token.ts";

/** The routes as Hono apps: all on one, or `{base_url}` and `{api_url}` apart (two ports). */
export interface EmulatorApps {
  app: Hono;
  baseApp: Hono;
  apiApp: Hono;
}

export function createApps(ctx: EmulatorContext, control: EmulatorControl): EmulatorApps {
  const baseParts = () => [
    authorizeRoutes(ctx),
    tokenRoutes(ctx),
    openRoutes(ctx),
    fileRoutes(ctx),
    controlRoutes(ctx, control),
  ];
  const changed = () => {
    ctx.persistence.changed();
  };
  const baseApp = mount(baseParts(), changed);
  const apiApp = mount([taskRoutes(ctx)], changed);
  const app = mount([...baseParts(), taskRoutes(ctx)], changed);
  return { app, baseApp, apiApp };
}

function mount(parts: readonly Hono[], changed: () => void): Hono {
  const app = new Hono();
  // Reads change nothing, except the authorize page (a consent request, or a code).
  app.use("*", async function noteChanges(c, next) {
    await next();
    if (!["GET", "HEAD"].includes(c.req.method) || c.req.path === "/oauth/authorize") changed();
  });
  for (const part of parts) app.route("/", part);
  app.notFound((c) =>
    c.json({ error: "not_found", message: `no route ${c.req.method} ${c.req.path}` }, 404),
  );
  return app;
}
