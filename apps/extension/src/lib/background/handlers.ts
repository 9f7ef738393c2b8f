import { browser } from "wxt/browser";
import { OvertureError } from "../shared/errors.ts";
import type { Handlers } from "../shared/messages.ts";
import { originPattern, parseBackendUrl } from "../shared/backend-url.ts";
import { listParams } from "../shared/library-query.ts";
import { backendUrl, backendUrlItem } from "../shared/storage.ts";
import type { Task, WebhookSecretStatus } from "../shared/types.ts";
import { signIn } from "./auth.ts";
import { createApi } from "./api.ts";
import { mediaLinkOf, waveformOf } from "./archive.ts";
import type { Context } from "./context.ts";
import { downloadProgress, downloadResult } from "./downloads.ts";
import type { LiveHub } from "./live.ts";
import { refresh } from "./refresh.ts";
import { refusalsOf } from "./refusals.ts";
import { eventCursorItem, sessionItem } from "./session-store.ts";
import { applyTasks, settle } from "./tasks.ts";

const PROBLEM = {
  sign_in_denied: "denied",
  sign_in_cancelled: "cancelled",
  sign_in_redirect_refused: "redirect_refused",
  offline: "unreachable",
  backend_unreachable: "unreachable",
  rate_limited: "rate_limited",
} as const;

/** The background's side of the message map (`messages.ts`). */
export function createHandlers(ctx: Context, live: LiveHub): Handlers {
  async function signOutLocally(): Promise<void> {
    const { before } = await ctx.store.reset();
    await sessionItem.removeValue();
    await eventCursorItem.removeValue();
    live.stop();
    // The next person on this browser profile does not get the last one's music.
    await ctx.audioCache.clear().catch(() => undefined);
    await ctx.peaks.clear().catch(() => undefined);
    ctx.mediaLinks.clear();
    await settle(before.tasks, []);
  }

  async function noteWebhook(
    namespace: string,
    status: WebhookSecretStatus,
  ): Promise<WebhookSecretStatus> {
    // A saved or removed secret makes every earlier refusal history.
    await ctx.store.update((s) =>
      s.selection?.namespace === namespace
        ? { ...s, webhookConfigured: status.configured, webhookRefusals: [] }
        : s,
    );
    return status;
  }

  return {
    "state/refresh": () => refresh(ctx),

    "auth/sign-in": async () => {
      await ctx.store.update((s) => ({ ...s, signInProblem: null, signInRetryAt: null }));
      const previous = await sessionItem.getValue();
      try {
        const grant = await signIn({
          api: await ctx.api(),
          identity: ctx.deps.identity,
          createPkcePair: ctx.deps.createPkcePair,
        });
        // A revoked authorization leaves the old session behind: end it before replacing it.
        if (previous) await (await ctx.api(previous)).logout().catch(() => undefined);
        await sessionItem.setValue({
          token: grant.session_token,
          expiresAt: grant.expires_at,
          user: grant.user,
        });
        await eventCursorItem.removeValue();
        await ctx.store.reset({ auth: "signed_in", user: grant.user, connectivity: "online" });
      } catch (error) {
        const code = error instanceof OvertureError ? error.code : "sign_in_failed";
        // The person sees the category; the console keeps the detail for whoever debugs it.
        console.warn("[overture] sign-in did not complete:", code, error);
        const problem = code in PROBLEM ? PROBLEM[code as keyof typeof PROBLEM] : "failed";
        const wait = error instanceof OvertureError ? error.retryAfterSeconds : undefined;
        const retryAt =
          problem === "rate_limited" && wait !== undefined ? ctx.deps.now() + wait * 1000 : null;
        await ctx.store.update((s) => ({ ...s, signInProblem: problem, signInRetryAt: retryAt }));
        await ctx.noteFailure(error, null);
        throw error;
      }
      live.restart();
      return refresh(ctx);
    },

    "auth/sign-out": async () => {
      const session = await sessionItem.getValue();
      if (session) await (await ctx.api(session)).logout().catch(() => undefined);
      await signOutLocally();
      return ctx.store.read();
    },

    "sessions/list": () => ctx.call((api) => api.sessions()),

    "sessions/revoke": async ({ id }) => {
      const current = await ctx.call(async (api) => {
        const me = await api.me();
        await api.revokeSession(id);
        return me.session.id === id;
      });
      if (current) {
        await signOutLocally();
        return [];
      }
      return ctx.call((api) => api.sessions());
    },

    "tokens/list": ({ namespace }) => ctx.call((api) => api.tokens(namespace)),

    "selection/set": async (selection) => {
      await ctx.call((api) => api.setSelection(selection));
      return refresh(ctx);
    },

    "tasks/submit": async ({ params }) => {
      const snapshot = await ctx.store.read();
      if (!snapshot.selection)
        throw new OvertureError("no_selection", "Choose an access token first.");
      const task = await ctx.call((api) => api.submitTask(params));
      await applyTasks(ctx, [task]);
      return task;
    },

    "tasks/cancel": async ({ id }) => {
      const task: Task = await ctx.call((api) => api.cancelTask(id));
      await applyTasks(ctx, [task]);
      return task;
    },

    "tasks/more": ({ cursor }) => ctx.call((api) => api.tasks({ cursor, limit: 20 })),

    "tasks/search": ({ query, cursor }) =>
      ctx.call((api) => api.library(listParams(query, cursor))),
    "tasks/update": async ({ id, patch }) => {
      const task: Task = await ctx.call((api) => api.updateTask(id, patch));
      await applyTasks(ctx, [task]);
      return task;
    },
    "tasks/delete": async ({ id }) => {
      const deletion = await ctx.call((api) => api.deleteTask(id));
      await applyTasks(ctx, [deletion.task]);
      return deletion;
    },
    "tasks/details": ({ id }) => ctx.call((api) => api.details(id)),
    "tasks/estimate": ({ id }) => ctx.call((api) => api.estimate(id)),
    "shares/create": ({ id, ...share }) => ctx.call((api) => api.createShare(id, share)),
    "shares/list": ({ id }) => ctx.call((api) => api.shares(id)),
    "shares/revoke": ({ shareId }) => ctx.call((api) => api.revokeShare(shareId)),
    "tasks/regenerate": async ({ id }) => {
      const task: Task = await ctx.call((api) => api.regenerate(id));
      await applyTasks(ctx, [task]);
      return task;
    },
    "tasks/restore": async ({ id }) => {
      const task: Task = await ctx.call((api) => api.restoreTask(id));
      await applyTasks(ctx, [task]);
      return task;
    },

    "webhook/status": ({ namespace }) => ctx.call((api) => api.webhookStatus(namespace)),
    "webhook/set": async ({ namespace, secret }) => {
      await ctx.call((api) => api.setWebhookSecret(namespace, secret));
      return noteWebhook(namespace, await ctx.call((api) => api.webhookStatus(namespace)));
    },
    "webhook/clear": async ({ namespace }) => {
      await ctx.call((api) => api.clearWebhookSecret(namespace));
      return noteWebhook(namespace, await ctx.call((api) => api.webhookStatus(namespace)));
    },
    "webhook/refusals": async ({ namespace }) => {
      const { tasks } = await ctx.store.read();
      return ctx.call(async (api) =>
        refusalsOf(api, tasks, namespace, await api.webhookStatus(namespace)),
      );
    },

    "settings/backend-url": async ({ url }) => {
      const origin = parseBackendUrl(url);
      if (!origin) throw new OvertureError("invalid_url", "Enter an http:// or https:// address.");
      if (!(await browser.permissions.contains({ origins: [originPattern(origin)] })))
        throw new OvertureError("permission_denied", `Access to ${origin} was not granted.`);
      if (origin !== (await backendUrl())) {
        // A session belongs to one backend: switching ends it here (the old backend keeps it
        // until it expires or is revoked from another device).
        await signOutLocally();
      }
      // Stored even when it equals the development default: the person chose it.
      await backendUrlItem.setValue(origin);
      await ctx
        .api()
        .then((api) => api.health())
        .then(() => ctx.store.update((s) => ({ ...s, connectivity: "online" })))
        .catch((error: unknown) => ctx.noteFailure(error, null));
      return ctx.store.read();
    },

    "backend/check": async ({ url }) => {
      const origin = parseBackendUrl(url);
      if (!origin) throw new OvertureError("invalid_url", "Enter an http:// or https:// address.");
      if (!(await browser.permissions.contains({ origins: [originPattern(origin)] })))
        throw new OvertureError("permission_denied", `Access to ${origin} was not granted.`);
      return createApi({ baseUrl: origin, fetch: ctx.deps.fetch }).readiness();
    },

    "audio/download": ({ id, format }) => downloadResult(ctx, id, format),
    "audio/download-progress": ({ id }) => Promise.resolve(downloadProgress(id)),
    "audio/peaks": ({ id }) => waveformOf(ctx, id),
    "audio/media-link": ({ id, format }) => mediaLinkOf(ctx, id, format),
  };
}
