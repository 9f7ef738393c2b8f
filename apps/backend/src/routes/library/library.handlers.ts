import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import { requireSession } from "../../middleware/session.ts";
import type { AppDeps } from "../../services/index.ts";
import {
  deleteTask,
  getTaskDetails,
  getTaskEstimate,
  patchTask,
  regenerateTask,
  restoreTask,
} from "./library.routes.ts";

/** The library's actions on one track: rename, favourite, delete and undo, details, estimate, regenerate. */
export function libraryRouter(deps: AppDeps) {
  const { sessions, library, archive } = deps.services;
  const middleware = requireSession(sessions);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...patchTask, middleware }, async (c) => {
      const { userId } = c.get("session");
      return c.json(await library.patch(userId, c.req.valid("param").id, c.req.valid("json")), 200);
    })
    .openapi({ ...deleteTask, middleware }, async (c) => {
      return c.json(await library.remove(c.get("session").userId, c.req.valid("param").id), 200);
    })
    .openapi({ ...restoreTask, middleware }, async (c) => {
      return c.json(await library.restore(c.get("session").userId, c.req.valid("param").id), 200);
    })
    .openapi({ ...getTaskDetails, middleware }, async (c) => {
      const id = c.req.valid("param").id;
      const peaks = await archive.peaks(id).catch(() => undefined);
      const seconds = peaks ? peaks.frames / peaks.sampleRate : null;
      return c.json(await library.details(c.get("session").userId, id, seconds), 200);
    })
    .openapi({ ...getTaskEstimate, middleware }, async (c) => {
      return c.json(await library.estimate(c.get("session").userId, c.req.valid("param").id), 200);
    })
    .openapi({ ...regenerateTask, middleware }, async (c) => {
      const task = await library.regenerate(c.get("session").userId, c.req.valid("param").id);
      return c.json(task, 201);
    });
}
