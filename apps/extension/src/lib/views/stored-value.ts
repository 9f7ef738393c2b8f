import { browser } from "wxt/browser";
import { BACKEND_URL, type ItemSpec, defaultBackendUrl } from "../shared/item-specs.ts";
import type * as StorageItems from "../shared/storage.ts";
import type { VersionedItem } from "../shared/versioned-item.ts";

/**
 * The views' first reads, without WXT's storage library (a third of the popup's first chunk,
 * issue 16). A value already at its item's version is exactly what the item would answer; one
 * that is not is left to the item itself, loaded then, which migrates it or fails as always. The
 * background defines every item when it starts, so by the time a view opens that is rare.
 */

type Area = "local" | "session" | "sync" | "managed";

export type Items = typeof StorageItems;

let items = (): Promise<Items> =>
  Promise.reject(new Error("the page gave no storage items (see mount.tsx)"));

/**
 * How this page reaches storage.ts when a value needs migrating: the options page has it loaded
 * already, the popup fetches it as a chunk then. The page's entry says so, not this module: a
 * dynamic `import()` here would bring Vite's preload helper into every page's first chunk.
 */
export function provideItems(load: () => Promise<Items>): void {
  items = load;
}

function locate(spec: ItemSpec<unknown>): { area: Area; name: string } {
  const at = spec.key.indexOf(":");
  return { area: spec.key.slice(0, at) as Area, name: spec.key.slice(at + 1) };
}

/** `spec`'s value, as its item (`pick` of storage.ts) answers it. */
export async function readStored<T>(
  spec: ItemSpec<T>,
  pick: (items: Items) => VersionedItem<T>,
): Promise<T> {
  const { area, name } = locate(spec);
  // WXT keeps an item's version in `<name>$` (`{ v }`; none: version 1).
  const stored = await browser.storage[area].get([name, `${name}$`]);
  const value = stored[name] as T | null | undefined;
  if (value == null) return spec.fallback;
  const meta = stored[`${name}$`] as { v?: number } | null | undefined;
  if ((meta?.v ?? 1) === spec.version) return value;
  return pick(await items()).getValue();
}

/** Calls `callback` with `spec`'s new value whenever it changes, as `item.watch` does. */
export function watchStored<T>(spec: ItemSpec<T>, callback: (value: T) => void): () => void {
  const { area, name } = locate(spec);
  const changed = browser.storage[area].onChanged;
  const listener = (changes: Record<string, { newValue?: unknown; oldValue?: unknown }>) => {
    const change = changes[name];
    // Storage values are JSON, so equal text is an equal value (WXT compares deeply too).
    if (!change || JSON.stringify(change.newValue) === JSON.stringify(change.oldValue)) return;
    callback((change.newValue ?? spec.fallback) as T);
  };
  changed.addListener(listener);
  return () => {
    changed.removeListener(listener);
  };
}

/** The backend address, as `backendUrl()` in storage.ts answers it. */
export async function readBackendUrl(): Promise<string | null> {
  const chosen = await readStored(BACKEND_URL, (all) => all.backendUrlItem);
  return chosen ?? defaultBackendUrl();
}
