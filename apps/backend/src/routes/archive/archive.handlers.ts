import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../app-env.ts";
import { requireSession } from "../../middleware/session.ts";
import type { AppDeps } from "../../services/index.ts";
import { getArchiveUsage } from "./archive.routes.ts";

export function archiveRouter(deps: AppDeps) {
  const { sessions, archive } = deps.services;
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
    { ...getArchiveUsage, middleware: requireSession(sessions) },
    async (c) => {
      const usage = await archive.usage(c.get("session").userId);
      return c.json(
        {
          used_bytes: usage.usedBytes,
          quota_bytes: usage.quotaBytes,
          retention_days: usage.retentionMs === null ? null : usage.retentionMs / 86_400_000,
        },
        200,
      );
    },
  );
}
