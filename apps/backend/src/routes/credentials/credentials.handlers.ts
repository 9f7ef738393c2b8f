import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { requireSession } from "../../middleware/session.ts";
import type { Selection } from "../../services/credentials/selections.ts";
import {
  deleteWebhookSecret,
  getSelection,
  getWebhookSecret,
  listTokens,
  putSelection,
  putWebhookSecret,
} from "./credentials.routes.ts";

function selectionJson(selection: Selection) {
  return {
    namespace: selection.namespace,
    token_id: selection.tokenId,
    token_name: selection.tokenName,
    usage_scenario: selection.usageScenario,
  };
}

export function credentialsRouter(deps: AppDeps) {
  const { sessions, accessTokens, selections, webhookSecrets } = deps.services;
  const middleware = requireSession(sessions);

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...listTokens, middleware }, async (c) => {
      const { ns } = c.req.valid("param");
      const tokens = await accessTokens.list(c.get("session").userId, ns);
      return c.json(
        {
          namespace: ns,
          tokens: tokens.map((t) => ({ id: t.id, name: t.name, usage_scenario: t.usage_scenario })),
        },
        200,
      );
    })
    .openapi({ ...getSelection, middleware }, async (c) => {
      const selection = await selections.get(c.get("session").userId);
      return c.json({ selection: selection ? selectionJson(selection) : null }, 200);
    })
    .openapi({ ...putSelection, middleware }, async (c) => {
      const body = c.req.valid("json");
      const selection = await selections.set(
        c.get("session").userId,
        body.namespace,
        body.token_id,
      );
      return c.json({ selection: selectionJson(selection) }, 200);
    })
    .openapi({ ...putWebhookSecret, middleware }, async (c) => {
      const { ns } = c.req.valid("param");
      await webhookSecrets.set(c.get("session").userId, ns, c.req.valid("json").secret);
      return c.body(null, 204);
    })
    .openapi({ ...getWebhookSecret, middleware }, async (c) => {
      const { ns } = c.req.valid("param");
      const status = await webhookSecrets.status(c.get("session").userId, ns);
      c.header("Cache-Control", "no-store");
      return c.json(
        {
          namespace: ns,
          configured: status.configured,
          updated_at: status.updated_at?.toISOString() ?? null,
          previous_valid_until: status.previous_valid_until?.toISOString() ?? null,
        },
        200,
      );
    })
    .openapi({ ...deleteWebhookSecret, middleware }, async (c) => {
      const { ns } = c.req.valid("param");
      await webhookSecrets.clear(c.get("session").userId, ns);
      return c.body(null, 204);
    });
}
