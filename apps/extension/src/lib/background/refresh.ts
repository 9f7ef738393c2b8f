import { OvertureError } from "../shared/errors.ts";
import type { Snapshot } from "../shared/snapshot.ts";
import { mergeTasks } from "../shared/snapshot.ts";
import type { Context } from "./context.ts";
import { refusalsOf } from "./refusals.ts";
import { sessionItem } from "./session-store.ts";
import { settle } from "./tasks.ts";

/** Newest tasks fetched on a refresh. */
const PAGE = 20;

/** Optional parts of a refresh may fail alone, except when the failure is about the person's access. */
const SIGN_IN_AGAIN: readonly string[] = ["unauthenticated", "reauthentication_required"];
function optional<T>(work: Promise<T>): Promise<T | null> {
  return work.catch((error: unknown) => {
    if (error instanceof OvertureError && SIGN_IN_AGAIN.includes(error.code)) throw error;
    return null;
  });
}

/**
 * The backend renews a session while it is used (sliding expiry): keep the renewed expiry, or
 * `requireSession` would end a session the backend still honours once the first one passed.
 * Only for the session the answer was about: a sign-out or a new sign-in meanwhile wins.
 */
async function keepRenewedExpiry(token: string, expiresAt: string): Promise<void> {
  const stored = await sessionItem.getValue();
  if (stored?.token !== token || stored.expiresAt === expiresAt) return;
  await sessionItem.setValue({ ...stored, expiresAt });
}

/** Signed out: only whether the backend answers, so the sign-in screen can say it does not. */
async function checkReachable(ctx: Context): Promise<Snapshot> {
  try {
    await (await ctx.api()).health();
    await ctx.store.update((s) =>
      s.connectivity === "online" ? s : { ...s, connectivity: "online" },
    );
  } catch (error) {
    await ctx.noteFailure(error, null);
  }
  return ctx.store.read();
}

/**
 * Re-reads who is signed in, the selection, quota, recent tasks and whether the selected
 * account has a webhook secret; answers the new snapshot. Failures land on the matching state
 * screen (`Context.call`) and the stored snapshot is answered, so a view always gets something.
 */
export async function refresh(ctx: Context): Promise<Snapshot> {
  if (!(await sessionItem.getValue())) return checkReachable(ctx);
  try {
    const data = await ctx.call(async (api, session) => {
      const [me, selection, quota, page] = await Promise.all([
        api.me(),
        api.selection(),
        optional(api.quota()),
        api.tasks({ limit: PAGE }),
      ]);
      await keepRenewedExpiry(session.token, me.session.expires_at);
      const webhook = selection ? await optional(api.webhookStatus(selection.namespace)) : null;
      const known = mergeTasks((await ctx.store.read()).tasks, page.tasks);
      const refusals =
        selection && webhook
          ? await optional(refusalsOf(api, known, selection.namespace, webhook))
          : [];
      return { me, selection, quota, page, webhook, refusals };
    });
    const { before, after } = await ctx.store.update((s) => ({
      ...s,
      auth: data.me.grant.status === "revoked" ? "revoked" : "signed_in",
      user: data.me.user,
      signInProblem: null,
      signInRetryAt: null,
      connectivity: "online",
      selection: data.selection,
      quota: data.quota ?? s.quota,
      tasks: mergeTasks(s.tasks, data.page.tasks),
      nextCursor: data.page.next_cursor,
      webhookConfigured: data.webhook ? data.webhook.configured : null,
      webhookRefusals: data.refusals ?? s.webhookRefusals,
    }));
    await settle(before.tasks, after.tasks);
    return after;
  } catch (error) {
    if (error instanceof OvertureError) return ctx.store.read();
    throw error;
  }
}
