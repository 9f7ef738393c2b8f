import { OvertureError } from "../../shared/errors.ts";
import type { Snapshot } from "../../shared/snapshot.ts";
import type { DeviceSession } from "../../shared/types.ts";
import { signIn as runSignIn } from "../auth.ts";
import { refresh } from "../refresh.ts";
import { eventCursorItem, sessionItem } from "../session-store.ts";
import { settle } from "../tasks.ts";
import type { Handler, HandlerScope } from "./context.ts";

/** What a failed sign-in is called on the sign-in screen (the error code's category). */
const PROBLEM = {
  sign_in_denied: "denied",
  sign_in_cancelled: "cancelled",
  sign_in_redirect_refused: "redirect_refused",
  offline: "unreachable",
  backend_unreachable: "unreachable",
  rate_limited: "rate_limited",
} as const;

/**
 * Forgets the session on this browser: the snapshot, the token, the stream and its position,
 * and every local copy of the person's music (the next person on this profile gets none of it).
 */
export async function signOutLocally({ ctx, live }: HandlerScope): Promise<void> {
  const { before } = await ctx.store.reset();
  await sessionItem.removeValue();
  await eventCursorItem.removeValue();
  live.stop();
  await ctx.audioCache.clear().catch(() => undefined);
  await ctx.peaks.clear().catch(() => undefined);
  ctx.mediaLinks.clear();
  await settle(before.tasks, []);
}

/** `state/refresh`: everything read again from the backend. */
export const refreshState: Handler<"state/refresh"> = ({ ctx }) => refresh(ctx);

/** `auth/sign-in`: PKCE, the consent window, the code exchange; the stream reopens for it. */
export const signIn: Handler<"auth/sign-in"> = async ({ ctx, live }) => {
  await ctx.store.update((s) => ({ ...s, signInProblem: null, signInRetryAt: null }));
  const previous = await sessionItem.getValue();
  try {
    const grant = await runSignIn({
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
};

/** `auth/sign-out`: the backend ends the session (when it can be reached), then this browser. */
export const signOut: Handler<"auth/sign-out"> = async (scope): Promise<Snapshot> => {
  const session = await sessionItem.getValue();
  if (session) await (await scope.ctx.api(session)).logout().catch(() => undefined);
  await signOutLocally(scope);
  return scope.ctx.store.read();
};

/** `sessions/list`: the person's signed-in devices. */
export const listSessions: Handler<"sessions/list"> = ({ ctx }) =>
  ctx.call((api) => api.sessions());

/** `sessions/revoke`: ends one device's session; this browser's own signs out here too. */
export const revokeSession: Handler<"sessions/revoke"> = async (
  scope,
  { id },
): Promise<DeviceSession[]> => {
  const current = await scope.ctx.call(async (api) => {
    const me = await api.me();
    await api.revokeSession(id);
    return me.session.id === id;
  });
  if (current) {
    await signOutLocally(scope);
    return [];
  }
  return scope.ctx.call((api) => api.sessions());
};
