import type { EmulatorClock } from "../clock/clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import type { ConsentRequest, UserRecord } from "../state/types.ts";
import { randomId } from "../util/random.ts";

/** What the store reads: the records, the clock and the life of a shown consent page. */
export interface ConsentDeps {
  state: EmulatorState;
  clock: EmulatorClock;
  options: Pick<ResolvedOptions, "consentTtlSeconds">;
}

/**
 * Pending consent requests live on the server: the page carries only an unguessable request id,
 * bound to a browser cookie and used once. The client and redirect URI are re-checked against
 * the registered application when the decision arrives.
 */
export function createConsentRequest(
  deps: ConsentDeps,
  input: Omit<ConsentRequest, "id" | "expiresAt">,
): ConsentRequest {
  pruneExpired(deps);
  const request: ConsentRequest = {
    ...input,
    id: randomId("cr_"),
    expiresAt: deps.clock.now() + deps.options.consentTtlSeconds * 1000,
  };
  deps.state.consentRequests.set(request.id, request);
  return request;
}

/** Removes and returns the request when it exists, is fresh and belongs to this browser. */
export function takeConsentRequest(
  deps: Omit<ConsentDeps, "options">,
  id: string,
  browserKey: string | undefined,
): ConsentRequest | undefined {
  const request = deps.state.consentRequests.get(id);
  if (!request || !browserKey || request.browserKey !== browserKey) return undefined;
  deps.state.consentRequests.delete(id);
  return request.expiresAt > deps.clock.now() ? request : undefined;
}

/** The user shown as signed in: the browser's last choice, else the first seeded user. */
export function signedInUser(state: EmulatorState, login: string | undefined): UserRecord {
  const chosen = login ? state.userByLogin(login) : undefined;
  const first = state.users.values().next().value;
  if (!first) throw new Error("the seed has no users");
  return chosen ?? first;
}

function pruneExpired(deps: Omit<ConsentDeps, "options">): void {
  const now = deps.clock.now();
  for (const [id, r] of deps.state.consentRequests)
    if (r.expiresAt <= now) deps.state.consentRequests.delete(id);
}
