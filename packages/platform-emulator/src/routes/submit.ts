import type { Context } from "hono";
import type { EmulatorContext } from "../context.ts";
import { submitView } from "../state/task-views.ts";
import { parseMusicParams } from "../tasks/params.ts";
import { checked } from "../util/checked.ts";
import { jsonError } from "../util/http.ts";
import { headerText } from "../webhooks/wire-url.ts";
import type { TaskEnv } from "./api-auth.ts";
import { readSubmitBody } from "./submit-body.ts";

/** `POST /v1/async/music/generations` (spec 4.6): validate, check the quota, create the task. */
export function submitTask(ctx: EmulatorContext) {
  return async function submit(c: Context<TaskEnv>): Promise<Response> {
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
  };
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
