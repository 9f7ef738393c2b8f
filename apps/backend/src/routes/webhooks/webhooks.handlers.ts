import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { readLimitedBytes } from "./read-body.ts";
import { receiveWebhook } from "./webhooks.routes.ts";
import { PAYLOAD_TOO_LARGE } from "../../schemas/error-codes.ts";

/**
 * `POST /webhooks/platform?k=<task key>`: the platform's signed task callbacks (spec 4.8, 4.9).
 * Answers 200 `{ status: "accepted" | "duplicate" }` only after the event is committed; 401 for
 * a missing header, stale timestamp or bad signature; 400 `malformed_body` / `task_mismatch`;
 * 404 `unknown_task`; 413 `payload_too_large`; 503 while the database is unavailable (the
 * platform retries).
 */
export function webhooksRouter(deps: AppDeps) {
  const { webhookIntake } = deps.services;
  const maxBytes = deps.config.webhook.maxBodyBytes;

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(
    receiveWebhook,
    async (c) => {
      const body = await readLimitedBytes(c.req.raw, maxBytes);
      if (body === undefined) {
        deps.metrics.webhookOutcomes.inc({ outcome: "rejected", reason: "payload_too_large" });
        return c.json(
          { error: PAYLOAD_TOO_LARGE, message: `The body exceeds ${maxBytes} bytes.` },
          413,
        );
      }
      // The URL as received: its query is what the platform signed (only the query matters).
      const answer = await webhookIntake.handle({
        url: c.req.url,
        headers: c.req.raw.headers,
        body,
      });
      return answer.status === 200 ? c.json(answer.body, 200) : c.json(answer.body, answer.status);
    },
  );
}
