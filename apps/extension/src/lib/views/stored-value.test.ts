import { describe, expect, it } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { snapshot } from "../../testing/fixtures.ts";
import { type ItemSpec, SNAPSHOT } from "../shared/item-specs.ts";
import * as storage from "../shared/storage.ts";
import { provideItems, readStored, watchStored } from "./stored-value.ts";
import type { VersionedItem } from "../shared/versioned-item.ts";

// Each test uses its own key, so that no item of storage.ts has seen it.
let counter = 0;
const spec = (version = 2): ItemSpec<{ n: number }> => ({
  key: `local:stored-value-${++counter}`,
  fallback: { n: 0 },
  version,
});
const nameOf = (s: ItemSpec<unknown>) => s.key.slice("local:".length);
// For values the fast path must answer: reaching for the item fails the test.
const noItems = (): VersionedItem<{ n: number }> => {
  throw new Error("the item was reached for");
};

describe("reading a stored value without WXT's storage library", () => {
  it("answers a value stored at its item's version as it is", async () => {
    const item = spec();
    await fakeBrowser.storage.local.set({
      [nameOf(item)]: { n: 5 },
      [`${nameOf(item)}$`]: { v: 2 },
    });
    expect(await readStored(item, noItems)).toEqual({ n: 5 });
  });

  it("answers the fallback when nothing is stored", async () => {
    expect(await readStored(spec(), noItems)).toEqual({ n: 0 });
  });

  it("takes a value without a version record as version 1", async () => {
    const item = spec(1);
    await fakeBrowser.storage.local.set({ [nameOf(item)]: { n: 3 } });
    expect(await readStored(item, noItems)).toEqual({ n: 3 });
  });

  it("leaves a value at an older version to its item, which migrates it", async () => {
    provideItems(() => Promise.resolve(storage));
    const v1 = { ...snapshot(), webhookRefusals: undefined };
    await fakeBrowser.storage.local.set({ snapshot: v1, snapshot$: { v: 1 } });
    expect(await readStored(SNAPSHOT, (items) => items.snapshotItem)).toMatchObject({
      webhookRefusals: [],
    });
  });
});

describe("watching a stored value without WXT's storage library", () => {
  it("calls back with each new value", async () => {
    const item = spec();
    const seen: unknown[] = [];
    const unwatch = watchStored(item, (value) => seen.push(value));
    await fakeBrowser.storage.local.set({ [nameOf(item)]: { n: 1 } });
    await fakeBrowser.storage.local.remove(nameOf(item));
    unwatch();
    await fakeBrowser.storage.local.set({ [nameOf(item)]: { n: 2 } });
    expect(seen).toEqual([{ n: 1 }, { n: 0 }]);
  });

  it("does not call back when a write leaves the value as it was", async () => {
    const item = spec();
    await fakeBrowser.storage.local.set({ [nameOf(item)]: { n: 1 } });
    const seen: unknown[] = [];
    const unwatch = watchStored(item, (value) => seen.push(value));
    await fakeBrowser.storage.local.set({ [nameOf(item)]: { n: 1 } });
    unwatch();
    expect(seen).toEqual([]);
  });
});
