import type { StorageItemKey } from "wxt/utils/storage";
import { DEFAULT_BACKEND_URL } from "./extension-identity.ts";
import { STORE_MODE } from "./flavour.ts";
import { EMPTY_SNAPSHOT, type Snapshot } from "./snapshot.ts";

/**
 * Where and at which version the views' storage items live, without WXT's storage library: the
 * popup's first chunk reads them through `stored-value.ts`, `storage.ts` defines the items.
 */
export interface ItemSpec<T> {
  key: StorageItemKey;
  fallback: T;
  version: number;
}

/** Backend origin, no trailing slash, as the person chose it (null: not chosen yet). v1. */
export const BACKEND_URL: ItemSpec<string | null> = {
  key: "local:backendUrl",
  fallback: null,
  version: 1,
};

/**
 * The backend to talk to: the chosen one, else in development builds the local stack's. A store
 * build has no default: the popup asks for the address at first run.
 */
export function defaultBackendUrl(): string | null {
  // Written out (not `isStoreBuild()`) so that the minifier drops the address from store bundles.
  return import.meta.env.MODE === STORE_MODE ? null : DEFAULT_BACKEND_URL;
}

/** Last known state for instant rendering. v4 (see `migrateSnapshotV4` in storage.ts). */
export const SNAPSHOT: ItemSpec<Snapshot> = {
  key: "local:snapshot",
  fallback: EMPTY_SNAPSHOT,
  version: 4,
};

/** How the views look and speak: "auto" follows the browser. */
export interface Preferences {
  language: "auto" | "en" | "zh_CN";
  theme: "auto" | "light" | "dark";
}

/** The person's choices in the options page. v1. */
export const PREFERENCES: ItemSpec<Preferences> = {
  key: "local:preferences",
  fallback: { language: "auto", theme: "auto" },
  version: 1,
};
