import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { requireSession } from "../../middleware/session.ts";
import { listRejections } from "./rejections.routes.ts";

export function rejectionsRouter(deps: AppDeps) {
  const { sessions, webhookIntake } = deps.services;
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
    { ...listRejections, middleware: requireSession(sessions) },
    async (c) => {
      const { cursor, limit } = c.req.valid("query");
      const page = await webhookIntake.listRejections(
        c.get("session").userId,
        limit,
        cursor === undefined ? undefined : Number(cursor),
      );
      return c.json(page, 200);
    },
  );
}
