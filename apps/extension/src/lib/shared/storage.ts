import {
  BACKEND_URL,
  PREFERENCES,
  type Preferences,
  SNAPSHOT,
  defaultBackendUrl,
} from "./item-specs.ts";
import type { Snapshot } from "./snapshot.ts";
import { defineVersionedItem } from "./versioned-item.ts";

export { defaultBackendUrl, type Preferences };

/**
 * Storage items views may read. The session token is not here: it lives in
 * `background/session-store.ts`, which only the background imports.
 */

/** Backend origin, no trailing slash, as the person chose it (null: not chosen yet). v1. */
export const backendUrlItem = defineVersionedItem(BACKEND_URL.key, BACKEND_URL);

/** The backend to talk to (see {@link defaultBackendUrl}). */
export async function backendUrl(): Promise<string | null> {
  return (await backendUrlItem.getValue()) ?? defaultBackendUrl();
}

/** v2 adds `webhookRefusals` (none known yet). Anything but an object is refused, not replaced. */
export function migrateSnapshotV2(old: unknown): Omit<Snapshot, "deletions" | "signInRetryAt"> {
  if (typeof old !== "object" || old === null || Array.isArray(old))
    throw new TypeError("snapshot v1 must be an object");
  return {
    ...(old as Omit<Snapshot, "webhookRefusals" | "deletions" | "signInRetryAt">),
    webhookRefusals: [],
  };
}

/** v3 adds `deletions` (none known yet). Anything but an object is refused, not replaced. */
export function migrateSnapshotV3(old: unknown): Omit<Snapshot, "signInRetryAt"> {
  if (typeof old !== "object" || old === null || Array.isArray(old))
    throw new TypeError("snapshot v2 must be an object");
  return { ...(old as Omit<Snapshot, "deletions" | "signInRetryAt">), deletions: [] };
}

/** v4 adds `signInRetryAt` (no wait known). Anything but an object is refused, not replaced. */
export function migrateSnapshotV4(old: unknown): Snapshot {
  if (typeof old !== "object" || old === null || Array.isArray(old))
    throw new TypeError("snapshot v3 must be an object");
  return { ...(old as Omit<Snapshot, "signInRetryAt">), signInRetryAt: null };
}

/** Last known state for instant rendering. v4 (see {@link migrateSnapshotV4}). */
export const snapshotItem = defineVersionedItem(SNAPSHOT.key, {
  ...SNAPSHOT,
  migrations: { 2: migrateSnapshotV2, 3: migrateSnapshotV3, 4: migrateSnapshotV4 },
});

export const LANGUAGES = ["auto", "en", "zh_CN"] as const;
export const THEMES = ["auto", "light", "dark"] as const;

/** The person's choices in the options page. v1. */
export const preferencesItem = defineVersionedItem(PREFERENCES.key, PREFERENCES);

/** A form value as a control holds it: text for numbers while typing, booleans for switches. */
export type DraftValue = string | number | boolean;

/** The compose form's last settings. */
export interface ComposeDraft {
  values: Record<string, DraftValue>;
  preset: string | null;
}

export const EMPTY_DRAFT: ComposeDraft = { values: {}, preset: null };

/**
 * v1 (pre-release builds) stored the form values as a flat record. v2 wraps them with the chosen
 * preset. Anything that is not a record of form values is refused rather than replaced.
 */
export function migrateDraftV2(old: unknown): ComposeDraft {
  if (typeof old !== "object" || old === null || Array.isArray(old))
    throw new TypeError("compose draft v1 must be an object of form values");
  const values: Record<string, DraftValue> = {};
  for (const [name, value] of Object.entries(old)) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
      throw new TypeError(`compose draft v1 field "${name}" is not a form value`);
    values[name] = value;
  }
  return { values, preset: null };
}

/** The compose form's last settings. v2 (see {@link migrateDraftV2}). */
export const composeDraftItem = defineVersionedItem<ComposeDraft>("local:composeDraft", {
  fallback: EMPTY_DRAFT,
  version: 2,
  migrations: { 2: migrateDraftV2 },
});
