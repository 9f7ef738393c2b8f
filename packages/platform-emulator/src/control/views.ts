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
export type ControlTaskView = ReturnType<typeof controlTaskView>;

export function deliveryView(r: DeliveryRecord) {
  const { timer: _timer, secretAtEvent: _secret, ...rest } = r;
  return { ...rest, attempts: r.attempts.map((a) => ({ ...a })) };
}
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
export type ConsoleSnapshot = ReturnType<typeof consoleSnapshot>;
