import { Hono, type Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import type { EmulatorContext } from "../context.ts";
import { ControlError, type EmulatorControl } from "../control/handle.ts";
import { consolePage } from "../pages/console-page.ts";
import { pageHeaders } from "../pages/layout.ts";
import { clockRoutes, faultRoutes } from "./control-drive.ts";

/**
 * The path under which the emulator serves its HTTP control plane and console
 * (`/__emulator/console`, `/__emulator/tasks`, `/__emulator/faults` …): the same as
 * `emu.control`, for a test or tool in another process. Local use only: it has no
 * authentication.
 *
 * @example
 * ```ts
 * await fetch(`${emu.url}${CONTROL_PREFIX}/accounts/demo/webhook-secret/reset`, { method: "POST" });
 * ```
 */
export const CONTROL_PREFIX = "/__emulator";

/**
 * The control plane: a JSON API plus an HTML console under /__emulator/. It is for local use
 * (the CLI binds 127.0.0.1) and has no authentication; cross-site browser POSTs are refused.
 */
export function controlRoutes(ctx: EmulatorContext, control: EmulatorControl): Hono {
  const app = new Hono();

  app.use("*", async function refuseCrossSite(c, next) {
    const origin = c.req.header("Origin");
    if (c.req.method !== "GET" && origin && origin !== new URL(c.req.url).origin)
      return c.json(
        { error: "forbidden", message: "cross-site control requests are refused" },
        403,
      );
    return next();
  });
  app.onError((error, c) => {
    if (error instanceof ControlError)
      return c.json({ error: error.code, message: error.message }, error.status);
    if (error instanceof z.ZodError || error instanceof SyntaxError)
      return c.json({ error: "invalid_body", message: error.message }, 400);
    throw error;
  });

  app.get("/", (c) =>
    c.json({ ...ENDPOINTS, console: `${ctx.options.baseUrl}${CONTROL_PREFIX}/console` }),
  );
  app.get("/console", (c) =>
    c.body(
      consolePage(control.snapshot(), control.listTasks(), control.listDeliveries()),
      200,
      pageHeaders(),
    ),
  );
  app.get("/state", (c) => c.json(control.snapshot()));
  app.post("/reset", (c) => {
    control.reset();
    return c.json({ ok: true });
  });
  app.post("/seed", async (c) => {
    control.seed(await c.req.json());
    return c.json({ ok: true });
  });

  consoleEditRoutes(app, control);
  recordRoutes(app, control);
  clockRoutes(app, control);
  faultRoutes(app, control);

  const outer = new Hono();
  outer.route(CONTROL_PREFIX, app);
  return outer;
}

/** The console's edits: webhook secrets, quotas, applications, authorizations. */
function consoleEditRoutes(app: Hono, control: EmulatorControl): void {
  app.post("/accounts/:namespace/webhook-secret/reset", (c) =>
    c.json({ secret: control.resetWebhookSecret(c.req.param("namespace")) }),
  );
  app.put("/accounts/:namespace/webhook-secret", async (c) => {
    const { secret } = z.object({ secret: z.string() }).parse(await c.req.json());
    control.setWebhookSecret(c.req.param("namespace"), secret);
    return c.json({ ok: true });
  });
  app.put("/accounts/:namespace/quota", async (c) => {
    const { quota } = z.object({ quota: z.number() }).parse(await c.req.json());
    control.setQuota(c.req.param("namespace"), quota);
    return c.json({ ok: true });
  });
  app.patch("/applications/:clientId", async (c) => {
    const patch = z
      .object({
        name: z.string().min(1).optional(),
        description: z.string().optional(),
        homepage: z.string().optional(),
        redirect_uri: z.string().optional(),
        client_secret: z.string().optional(),
      })
      .strict()
      .parse(await c.req.json());
    return c.json(control.updateApplication(c.req.param("clientId"), patch));
  });
  app.post("/authorizations/revoke", async (c) => {
    const body = z
      .object({
        client_id: z.string(),
        user_id: z.number().int().optional(),
        login: z.string().optional(),
      })
      .parse(await c.req.json());
    const input = { clientId: body.client_id, userId: body.user_id, login: body.login };
    return c.json({ revoked: control.revokeAuthorization(input) });
  });
}

/** Tasks and deliveries as the control plane shows them; a manual retry. */
function recordRoutes(app: Hono, control: EmulatorControl): void {
  app.get("/tasks", (c) =>
    c.json(
      control.listTasks({ namespace: c.req.query("namespace"), status: c.req.query("status") }),
    ),
  );
  app.get("/tasks/:id", (c) => found(c, control.getTask(c.req.param("id"))));
  app.get("/deliveries", (c) =>
    c.json(control.listDeliveries({ taskId: c.req.query("task_id"), state: c.req.query("state") })),
  );
  app.get("/deliveries/:id", (c) => found(c, control.getDelivery(c.req.param("id"))));
  app.post("/deliveries/:id/retry", async (c) =>
    c.json(await control.retryDelivery(c.req.param("id"))),
  );
}

function found(
  c: Context,
  value: object | undefined,
  status: ContentfulStatusCode = 200,
): Response {
  return value
    ? c.json(value, status)
    : c.json({ error: "not_found", message: "no such item" }, 404);
}

const ENDPOINTS = {
  endpoints: [
    "GET /__emulator/console",
    "GET /__emulator/state",
    "POST /__emulator/reset",
    "POST /__emulator/seed",
    "POST /__emulator/accounts/:namespace/webhook-secret/reset",
    "PUT /__emulator/accounts/:namespace/webhook-secret",
    "PUT /__emulator/accounts/:namespace/quota",
    "PATCH /__emulator/applications/:client_id",
    "POST /__emulator/authorizations/revoke",
    "GET /__emulator/tasks",
    "GET /__emulator/tasks/:id",
    "GET /__emulator/deliveries",
    "GET /__emulator/deliveries/:id",
    "POST /__emulator/deliveries/:id/retry",
    "GET /__emulator/clock",
    "POST /__emulator/clock/advance",
    "POST /__emulator/clock/scale",
    "POST /__emulator/settle",
    "GET /__emulator/faults",
    "POST /__emulator/faults",
    "POST /__emulator/faults/release-hangs",
    "DELETE /__emulator/faults",
  ],
};
