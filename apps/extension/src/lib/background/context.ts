import { OvertureError } from "../shared/errors.ts";
import { backendUrl } from "../shared/storage.ts";
import { type Api, createApi } from "./api.ts";
import { type CacheStorageLike, createAudioCache } from "./audio-cache.ts";
import { coalesce } from "./coalesce.ts";
import { createMediaLinkMemo, createPeaksStore } from "./archive-store.ts";
import type { IdentityApi } from "./auth.ts";
import { sessionItem, type StoredSession } from "./session-store.ts";
import { createSnapshotStore } from "./snapshot-store.ts";

/** What the background needs from the outside world; tests pass fakes. */
export interface BackgroundDeps {
  fetch: typeof fetch;
  now: () => number;
  identity: IdentityApi;
  createPkcePair: () => Promise<{ verifier: string; challenge: string }>;
  /** Where fetched result audio is kept (the Cache API); null keeps nothing. */
  cacheStorage: CacheStorageLike | null;
}

/** How long a quota refresh waits for the task changes that follow (a replay, a batch finishing). */
const QUOTA_GATHER_MS = 250;

/**
 * The background's shared state: the snapshot store, the API for the current backend and session,
 * and `call`, which runs a backend call and turns its failure into the right state screen
 * (offline, unreachable, session expired, authorization revoked) before re-throwing it.
 */
export function createContext(deps: BackgroundDeps) {
  const store = createSnapshotStore(deps.now);
  const audioCache = createAudioCache(deps.cacheStorage);
  const peaks = createPeaksStore(deps.cacheStorage);
  const mediaLinks = createMediaLinkMemo();

  /** The API of the chosen backend; `backend_not_set` before the first-run setup. */
  async function api(session: StoredSession | null = null): Promise<Api> {
    const baseUrl = await backendUrl();
    if (!baseUrl) throw new OvertureError("backend_not_set", "Choose the backend's address first.");
    return createApi({
      baseUrl,
      token: session?.token ?? null,
      fetch: deps.fetch,
    });
  }

  /** The stored session, or a `signed_out` / `session_expired` error (and the matching screen). */
  async function requireSession(): Promise<StoredSession> {
    const session = await sessionItem.getValue();
    if (!session) throw new OvertureError("signed_out", "Sign in first.");
    if (Date.parse(session.expiresAt) <= deps.now()) {
      await sessionItem.removeValue();
      await store.reset({ auth: "expired", user: session.user });
      throw new OvertureError("session_expired", "The session has expired; sign in again.");
    }
    return session;
  }

  async function noteFailure(error: unknown, session: StoredSession | null): Promise<void> {
    if (!(error instanceof OvertureError)) return;
    switch (error.code) {
      case "offline":
      case "backend_unreachable":
        await store.update((s) => ({
          ...s,
          connectivity: error.code === "offline" ? "offline" : "unreachable",
        }));
        return;
      case "unauthenticated":
        // The backend no longer knows the session (expired, revoked from another device).
        await sessionItem.removeValue();
        await store.reset({
          auth: session ? "expired" : "signed_out",
          user: session?.user ?? null,
        });
        return;
      case "reauthentication_required":
        await store.update((s) => ({ ...s, auth: "revoked", connectivity: "online" }));
        return;
      default:
        // Any other answer from the backend proves it is reachable.
        if (error.status !== undefined)
          await store.update((s) =>
            s.connectivity === "online" ? s : { ...s, connectivity: "online" },
          );
    }
  }

  /** Runs `work` with an authenticated API; records the outcome's effect on the screens. */
  async function call<T>(work: (api: Api, session: StoredSession) => Promise<T>): Promise<T> {
    const session = await requireSession();
    try {
      const result = await work(await api(session), session);
      await store.update((s) =>
        s.connectivity === "online" ? s : { ...s, connectivity: "online" },
      );
      return result;
    } catch (error) {
      await noteFailure(error, session);
      throw error;
    }
  }

  /**
   * Re-reads the quota, once for a burst of calls: a replay that ends 50 tasks asks once, not
   * 50 times. Resolves when a read that started after the call has finished.
   */
  const refreshQuota = coalesce(async () => {
    const quota = await call((api) => api.quota());
    await store.update((s) => ({ ...s, quota }));
  }, QUOTA_GATHER_MS);

  return {
    deps,
    store,
    audioCache,
    peaks,
    mediaLinks,
    api,
    call,
    requireSession,
    noteFailure,
    refreshQuota,
  };
}

export type Context = ReturnType<typeof createContext>;
