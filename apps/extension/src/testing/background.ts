// Test-only: the real background wired to a fake backend and a fake identity API.
import { vi } from "vitest";
import { startBackground } from "../lib/background/index.ts";
import { sessionItem } from "../lib/background/session-store.ts";
import { snapshotItem } from "../lib/shared/storage.ts";
import type { CacheStorageLike } from "../lib/background/audio-cache.ts";
import { memoryCacheStorage } from "./cache-storage.ts";
import { GRANT, USER, type fakeBackend, snapshot } from "./fixtures.ts";

export const REDIRECT = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
export const NOW = Date.parse("2025-01-01T10:05:00.000Z");

export function startTestBackground(
  backend: ReturnType<typeof fakeBackend>,
  consent: (url: string) => Promise<string | undefined> = () =>
    Promise.resolve(`${REDIRECT}?code=handoff`),
  cacheStorage: CacheStorageLike = memoryCacheStorage(),
) {
  const launchWebAuthFlow = vi.fn((details: { url: string }) => consent(details.url));
  const background = startBackground({
    fetch: backend.fetch,
    now: () => NOW,
    identity: { getRedirectURL: () => REDIRECT, launchWebAuthFlow },
    createPkcePair: () => Promise.resolve({ verifier: "v".repeat(43), challenge: "c".repeat(43) }),
    cacheStorage,
  });
  return { ...background, launchWebAuthFlow };
}

/** A person already signed in, with `overrides` on the stored snapshot. */
export async function signedIn(overrides: Parameters<typeof snapshot>[0] = {}): Promise<void> {
  await sessionItem.setValue({
    token: GRANT.session_token,
    expiresAt: GRANT.expires_at,
    user: USER,
  });
  await snapshotItem.setValue(
    snapshot({ selection: { namespace: "demo", token_id: 1 }, ...overrides }),
  );
}

/** Lets queued promise callbacks and microtasks run. */
export const settleAsync = () => new Promise((resolve) => setTimeout(resolve, 0));
