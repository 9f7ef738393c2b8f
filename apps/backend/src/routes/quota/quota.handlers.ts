import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { requireSession } from "../../middleware/session.ts";
import { getQuota } from "./quota.routes.ts";

export function quotaRouter(deps: AppDeps) {
  const { sessions, tasks } = deps.services;
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
    { ...getQuota, middleware: requireSession(sessions) },
    async (c) => c.json(await tasks.quota(c.get("session").userId), 200),
  );
}
