import type { User } from "../shared/types.ts";
import { defineVersionedItem } from "../shared/versioned-item.ts";

/** The backend session. Only the background imports this module (a test checks the graph). */
export interface StoredSession {
  token: string;
  /** ISO time; past it the backend refuses the token. */
  expiresAt: string;
  user: User;
}

/** v1. Removed on sign-out, on `unauthenticated` and on expiry. */
export const sessionItem = defineVersionedItem<StoredSession | null>("local:session", {
  fallback: null,
  version: 1,
});

/** `Last-Event-ID` of the live stream, so a restarted background resumes where it stopped. v1. */
export const eventCursorItem = defineVersionedItem<string | null>("local:eventCursor", {
  fallback: null,
  version: 1,
});
