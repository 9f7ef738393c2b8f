import type { EmulatorContext } from "../context.ts";
import type { ConsentRequest, UserRecord } from "../state/types.ts";
import { randomId } from "../util/random.ts";

/**
 * Pending consent requests live on the server: the page carries only an unguessable request id,
 * bound to a browser cookie and used once. The client and redirect URI are re-checked against
 * the registered application when the decision arrives.
 */
export function createConsentRequest(
  ctx: EmulatorContext,
  input: Omit<ConsentRequest, "id" | "expiresAt">,
): ConsentRequest {
  pruneExpired(ctx);
  const request: ConsentRequest = {
    ...input,
    id: randomId("cr_"),
    expiresAt: ctx.clock.now() + ctx.options.consentTtlSeconds * 1000,
  };
  ctx.state.consentRequests.set(request.id, request);
  return request;
}

/** Removes and returns the request when it exists, is fresh and belongs to this browser. */
export function takeConsentRequest(
  ctx: EmulatorContext,
  id: string,
  browserKey: string | undefined,
): ConsentRequest | undefined {
  const request = ctx.state.consentRequests.get(id);
  if (!request || !browserKey || request.browserKey !== browserKey) return undefined;
  ctx.state.consentRequests.delete(id);
  return request.expiresAt > ctx.clock.now() ? request : undefined;
}

/** The user shown as signed in: the browser's last choice, else the first seeded user. */
export function signedInUser(ctx: EmulatorContext, login: string | undefined): UserRecord {
  const chosen = login ? ctx.state.userByLogin(login) : undefined;
  const first = ctx.state.users.values().next().value;
  if (!first) throw new Error("the seed has no users");
  return chosen ?? first;
}

function pruneExpired(ctx: EmulatorContext): void {
  const now = ctx.clock.now();
  for (const [id, r] of ctx.state.consentRequests)
    if (r.expiresAt <= now) ctx.state.consentRequests.delete(id);
}
