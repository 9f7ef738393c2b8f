import { Hono, type Context } from "hono";
import type { EmulatorContext } from "../context.ts";
import { queryView, recordView, statusView, submitView } from "../state/task-views.ts";
import type { ConsoleTokenRecord } from "../state/types.ts";
import { balanceView } from "../tasks/balance.ts";
import { parseMusicParams } from "../tasks/params.ts";
import { checked } from "../util/checked.ts";
import { bearerToken, jsonError, UNAUTHORIZED_HEADERS } from "../util/http.ts";
import { headerText } from "../webhooks/wire-url.ts";
import { authenticateApiToken } from "./api-auth.ts";
import { readSubmitBody } from "./submit-body.ts";
import { taskFaults } from "./task-faults.ts";

interface Env {
  Variables: { token: ConsoleTokenRecord };
}

/**
 * `{api_url}` routes (spec 4.6, 4.7), plus what the live platform also serves (docs/platform-facts.md):
 * the balance, and the relay-seen `GET /v1/task/{id}/get` and `POST /v1/task/{id}/cancel`.
 */
export function taskRoutes(ctx: EmulatorContext): Hono {
  const app = new Hono<Env>();
  for (const path of ["/v1/*", "/api/v1/*"]) {
    app.use(path, taskFaults(ctx));
    app.use(path, async function requireApiToken(c, next) {
      const token = await authenticateApiToken(ctx, bearerToken(c.req.header("Authorization")));
      if (!token)
        return jsonError(
          401,
          "invalid_token",
          "wrong, invalid or expired API token",
          UNAUTHORIZED_HEADERS,
        );
      c.set("token", token);
      return next();
    });
  }

  app.post("/v1/async/music/generations", async (c) => {
    const body = await readSubmitBody(c, ctx.options.shape.jsonSubmit);
    if (!body.ok) return badRequest(ctx, "invalid_body", body.message, body.field);
    const params = parseMusicParams(body.fields);
    if (!params.ok)
      return badRequest(
        ctx,
        "invalid_parameter",
        params.message,
        params.field,
        params.missing ? `必传参数: ${params.field}` : undefined,
      );
    // Spec 4.6: X-WebHook is optional. An empty (or blank) value is a client with no callback
    // URL that sent the header anyway: no callback, as if absent, rather than a 400.
    const header = c.req.header("X-WebHook");
    const webhookUrl =
      header === undefined || header.trim() === "" ? undefined : headerText(header);
    if (webhookUrl !== undefined && !isHttpUrl(webhookUrl))
      return badRequest(ctx, "invalid_webhook_url", "X-WebHook must be an absolute http(s) URL");
    const result = ctx.tasks.submit({
      token: c.var.token,
      parameters: params.parameters,
      webhookUrl,
    });
    if (!result.ok) {
      const retryAfter = ctx.options.quotaRetryAfterSeconds;
      return jsonError(
        429,
        "quota_exceeded",
        `concurrency quota of ${result.quota} reached: ${result.active} task(s) waiting or in progress`,
        retryAfter === undefined ? undefined : { "Retry-After": String(retryAfter) },
      );
    }
    return c.json(checked("submitResponse", submitView(ctx.options, result.task)), 200);
  });

  const find = (c: Context<Env>) => ctx.tasks.find(c.req.param("id") ?? "", c.var.token.namespace);
  const notFound = () => jsonError(404, "task_not_found", "no such task for this account");

  app.get("/api/v1/task/:id", (c) => {
    const task = find(c);
    return task ? c.json(checked("task", queryView(ctx.options, task))) : notFound();
  });
  app.get("/v1/task/:id/status", (c) => {
    const task = find(c);
    return task ? c.json(checked("task", statusView(task))) : notFound();
  });
  const record = (c: Context<Env>) => {
    const task = find(c);
    return task ? c.json(checked("task", recordView(ctx.options, task))) : notFound();
  };
  app.get("/v1/task/:id", record);
  app.get("/v1/task/:id/get", record);
  const cancel = (c: Context<Env>) => {
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

/**
 * A 400 of the submit endpoint (spec 7). Readable: `{ error, message, field? }`. Live: the text
 * alone in `error_message`, as real traffic shows; a missing field reads `必传参数: <name>`.
 */
function badRequest(
  ctx: EmulatorContext,
  error: string,
  message: string,
  field?: string,
  liveMessage?: string,
): Response {
  const body =
    ctx.options.shape.parameterErrors === "live"
      ? { error_message: liveMessage ?? message }
      : { error, message, ...(field !== undefined ? { field } : {}) };
  return new Response(JSON.stringify(body), {
    status: 400,
    headers: { "Content-Type": "application/json" },
  });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === "http:" || url.protocol === "https:") && /^https?:\/\//i.test(value.trim())
    );
  } catch {
    return false;
  }
}
