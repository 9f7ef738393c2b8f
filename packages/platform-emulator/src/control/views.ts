import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import { recordView } from "../state/task-views.ts";
import type { BearerRecord, TaskRecord } from "../state/types.ts";
import type { DeliveryRecord } from "../webhooks/types.ts";

/** A task as the control plane shows it: the record endpoint's view plus the emulator's notes. */
export function controlTaskView(options: ResolvedOptions, t: TaskRecord) {
  return {
    ...recordView(options, t),
    namespace: t.namespace,
    access_token_id: t.consoleTokenId,
    webhook_url: t.webhookUrl ?? null,
    plan: t.plan,
  };
}
/**
 * A task as `control.listTasks()` and `/__emulator/tasks` show it: the task record of
 * `GET /api/v1/task/:id`, plus the account (`namespace`), the access token it was submitted
 * with, its webhook URL and its lifecycle plan.
 *
 * @example
 * ```ts
 * const [task] = emu.control.listTasks({ status: "success" });
 * console.log(task?.task_id, task?.webhook_url);
 * ```
 */
export type ControlTaskView = ReturnType<typeof controlTaskView>;

export function deliveryView(r: DeliveryRecord) {
  const { timer: _timer, secretAtEvent: _secret, ...rest } = r;
  return { ...rest, attempts: r.attempts.map((a) => ({ ...a })) };
}
/**
 * One webhook delivery (an event to a URL) as `control.listDeliveries()` shows it: the event,
 * the signed body, its state and every attempt with its outcome. Use it to assert what a
 * receiver answered, or to find a delivery to retry by hand.
 *
 * @example
 * ```ts
 * const failed = emu.control.listDeliveries({ state: "failed" });
 * for (const d of failed) await emu.control.retryDelivery(d.id);
 * ```
 */
export type DeliveryView = ReturnType<typeof deliveryView>;

/** Console resources (spec 2.1, 2.3, 2.4, 2.8), raw values included: this is the local console. */
export function consoleSnapshot(state: EmulatorState, clock: EmulatorClock) {
  const login = (id: number) => state.users.get(id)?.login ?? String(id);
  return {
    users: [...state.users.values()],
    accounts: [...state.accounts.values()].map((a) => ({
      namespace: a.namespace,
      kind: a.kind,
      name: a.name,
      members: [...a.memberIds].map(login),
      webhook_secret: a.webhookSecret,
      quota: a.quota,
      active_tasks: state.activeTaskCount(a.namespace),
    })),
    access_tokens: [...state.consoleTokens.values()].map((t) => ({ ...t })),
    applications: [...state.apps.values()].map((a) => ({ ...a })),
    authorizations: [...state.grants.values()].map((g) => ({
      grant_id: g.id,
      user_id: g.userId,
      login: login(g.userId),
      client_id: g.clientId,
      scope: g.scope.join(" "),
      created_at: g.createdAt,
      revoked_at: g.revokedAt ?? null,
      revoked_reason: g.revokedReason ?? null,
    })),
    /** The OAuth tokens held (expired ones too; a rotated-away refresh token is gone): a client's tests can scan their logs for them. */
    oauth_tokens: [
      ...[...state.accessTokens.values()].map((t) => bearerView("access_token", t)),
      ...[...state.refreshTokens.values()].map((t) => bearerView("refresh_token", t)),
    ],
    clock: { now: clock.now(), scale: clock.scale, mode: clock.mode },
  };
}

function bearerView(kind: "access_token" | "refresh_token", t: BearerRecord) {
  return {
    kind,
    token: t.token,
    grant_id: t.grantId,
    expires_at: t.expiresAt,
    rotated_at: t.rotatedAt ?? null,
  };
}
/**
 * The console's resources at one moment (`control.snapshot()`, `GET /__emulator/state`): users,
 * accounts with their secrets and quotas, access tokens, apps, authorizations, the OAuth tokens
 * held, and the clock. Raw values included: it is a local console.
 *
 * @example
 * ```ts
 * const { accounts } = emu.control.snapshot();
 * console.log(accounts.find((a) => a.namespace === "demo")?.quota); // 2
 * ```
 */
export type ConsoleSnapshot = ReturnType<typeof consoleSnapshot>;
