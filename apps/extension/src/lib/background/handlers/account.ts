import type { WebhookSecretStatus } from "../../shared/types.ts";
import type { Context } from "../context.ts";
import { refresh } from "../refresh.ts";
import { refusalsOf } from "../refusals.ts";
import type { Handler } from "./context.ts";

/** A saved or removed secret makes every earlier refusal of its account history. */
async function noteWebhook(
  ctx: Context,
  namespace: string,
  status: WebhookSecretStatus,
): Promise<WebhookSecretStatus> {
  await ctx.store.update((s) =>
    s.selection?.namespace === namespace
      ? { ...s, webhookConfigured: status.configured, webhookRefusals: [] }
      : s,
  );
  return status;
}

/** `tokens/list`: an account's access tokens (meta only). */
export const listTokens: Handler<"tokens/list"> = ({ ctx }, { namespace }) =>
  ctx.call((api) => api.tokens(namespace));

/** `selection/set`: the access token new tasks use; answers the refreshed snapshot. */
export const setSelection: Handler<"selection/set"> = async ({ ctx }, selection) => {
  await ctx.call((api) => api.setSelection(selection));
  return refresh(ctx);
};

/** `webhook/status`: whether an account has a webhook secret. */
export const webhookStatus: Handler<"webhook/status"> = ({ ctx }, { namespace }) =>
  ctx.call((api) => api.webhookStatus(namespace));

/** `webhook/set`: saves an account's webhook secret (sent once, never shown again). */
export const setWebhookSecret: Handler<"webhook/set"> = async ({ ctx }, { namespace, secret }) => {
  await ctx.call((api) => api.setWebhookSecret(namespace, secret));
  return noteWebhook(ctx, namespace, await ctx.call((api) => api.webhookStatus(namespace)));
};

/** `webhook/clear`: removes an account's webhook secret (polling only from then on). */
export const clearWebhookSecret: Handler<"webhook/clear"> = async ({ ctx }, { namespace }) => {
  await ctx.call((api) => api.clearWebhookSecret(namespace));
  return noteWebhook(ctx, namespace, await ctx.call((api) => api.webhookStatus(namespace)));
};

/** `webhook/refusals`: the account's refused deliveries since its secret was saved. */
export const webhookRefusals: Handler<"webhook/refusals"> = async ({ ctx }, { namespace }) => {
  const { tasks } = await ctx.store.read();
  return ctx.call(async (api) =>
    refusalsOf(api, tasks, namespace, await api.webhookStatus(namespace)),
  );
};
