import { browser } from "wxt/browser";
import { BACKEND_URL, type ItemSpec, defaultBackendUrl } from "./item-specs.ts";
import type { VersionedItem } from "./versioned-item.ts";

/**
 * The views' first reads, without WXT's storage library (a third of the popup's first chunk,
 * issue 16). A value already at its item's version is exactly what the item would answer; one
 * that is not is left to the item itself, loaded then, which migrates it or fails as always. The
 * background defines every item when it starts, so by the time a view opens that is rare.
 */

type Area = "local" | "session" | "sync" | "managed";

function locate(spec: ItemSpec<unknown>): { area: Area; name: string } {
  const at = spec.key.indexOf(":");
  return { area: spec.key.slice(0, at) as Area, name: spec.key.slice(at + 1) };
}

/** `spec`'s value, as `item().getValue()` answers it. */
export async function readStored<T>(
  spec: ItemSpec<T>,
  item: () => Promise<VersionedItem<T>>,
): Promise<T> {
  const { area, name } = locate(spec);
  // WXT keeps an item's version in `<name>$` (`{ v }`; none: version 1).
  const stored = await browser.storage[area].get([name, `${name}$`]);
  const value = stored[name] as T | null | undefined;
  if (value == null) return spec.fallback;
  const meta = stored[`${name}$`] as { v?: number } | null | undefined;
  if ((meta?.v ?? 1) === spec.version) return value;
  return (await item()).getValue();
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
  const chosen = await readStored(
    BACKEND_URL,
    async () => (await import("./storage.ts")).backendUrlItem,
  );
  return chosen ?? defaultBackendUrl();
}
