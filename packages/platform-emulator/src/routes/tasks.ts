import { Hono, type Context } from "hono";
import type { EmulatorContext } from "../context.ts";
import { queryView, recordView, statusView } from "../state/task-views.ts";
import { balanceView } from "../tasks/balance.ts";
import { checked } from "../util/checked.ts";
import { jsonError } from "../util/http.ts";
import { requireApiToken, type TaskEnv } from "./api-auth.ts";
import { submitTask } from "./submit.ts";
import { taskFaults } from "./task-faults.ts";

/**
 * `{api_url}` routes (spec 4.6, 4.7), plus what the live platform also serves (docs/platform-facts.md):
 * the balance, and the relay-seen `GET /v1/task/{id}/get` and `POST /v1/task/{id}/cancel`.
 */
export function taskRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono<TaskEnv>();
  for (const path of ["/v1/*", "/api/v1/*"]) {
    app.use(path, taskFaults(ctx));
    app.use(path, requireApiToken(ctx));
  }

  app.post("/v1/async/music/generations", submitTask(ctx));

  const find = (c: Context<TaskEnv>) =>
    ctx.tasks.find(c.req.param("id") ?? "", c.var.token.namespace);
  const notFound = () => jsonError(404, "task_not_found", "no such task for this account");

  app.get("/api/v1/task/:id", (c) => {
    const task = find(c);
    return task ? c.json(checked("task", queryView(ctx.options, task))) : notFound();
  });
  app.get("/v1/task/:id/status", (c) => {
    const task = find(c);
    return task ? c.json(checked("task", statusView(task))) : notFound();
  });
  const record = (c: Context<TaskEnv>) => {
    const task = find(c);
    return task ? c.json(checked("task", recordView(ctx.options, task))) : notFound();
  };
  app.get("/v1/task/:id", record);
  app.get("/v1/task/:id/get", record);
  const cancel = (c: Context<TaskEnv>) => {
    const task = find(c);
    if (!task) return notFound();
    if (!ctx.tasks.cancel(task))
      return jsonError(
        409,
        "task_not_cancellable",
        `the task is already ${task.status}; only waiting or in_progress tasks can be cancelled`,
      );
    return c.json(checked("cancelResponse", statusView(task)));
  };
  app.post("/api/v1/task/:id/cancel", cancel);
  app.post("/v1/task/:id/cancel", cancel);
  app.get("/v1/tasks/available-quota", (c) => {
    const { namespace } = c.var.token;
    const max = ctx.state.accounts.get(namespace)?.quota ?? 0;
    const available = Math.max(0, max - ctx.state.activeTaskCount(namespace));
    return c.json(checked("quota", { available, max_concurrency: max }));
  });
  app.get("/v1/tokens/packages/balance", (c) =>
    c.json(checked("balance", balanceView(ctx.options, ctx.state, c.var.token.namespace))),
  );

  const outer = new Hono();
  outer.route("/", app);
  return outer;
}
