import { beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { MigrationError } from "wxt/utils/storage";
import { EMPTY_SNAPSHOT } from "./snapshot.ts";
import {
  migrateDraftV2,
  migrateSnapshotV2,
  migrateSnapshotV3,
  migrateSnapshotV4,
} from "./storage.ts";
import { defineVersionedItem } from "./versioned-item.ts";

// Each test uses its own key: WXT starts an item's migration when the item is defined.
let counter = 0;
const freshKey = () => `local:test-item-${++counter}` as const;

async function seed(key: string, value: unknown, version?: number) {
  const name = key.slice("local:".length);
  await fakeBrowser.storage.local.set({
    [name]: value,
    ...(version ? { [`${name}$`]: { v: version } } : {}),
  });
}

describe("versioned storage items", () => {
  // WXT logs every failed migration; these tests fail migrations on purpose.
  beforeEach(() => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });

  it("answers the fallback on a fresh install and records the current version on first write", async () => {
    const key = freshKey();
    const item = defineVersionedItem<{ n: number }>(key, {
      fallback: { n: 0 },
      version: 2,
      migrations: {},
    });
    expect(await item.getValue()).toEqual({ n: 0 });
    await item.setValue({ n: 1 });
    const name = key.slice("local:".length);
    expect(await fakeBrowser.storage.local.get(`${name}$`)).toEqual({ [`${name}$`]: { v: 2 } });
  });

  it("migrates a v1 value through every step up to the current version", async () => {
    const key = freshKey();
    await seed(key, { a: 1 });
    const item = defineVersionedItem<{ a: number; b: number; c: number }>(key, {
      fallback: { a: 0, b: 0, c: 0 },
      version: 3,
      migrations: {
        2: (old) => ({ ...(old as object), b: 2 }),
        3: (old) => ({ ...(old as object), c: 3 }),
      },
    });
    expect(await item.getValue()).toEqual({ a: 1, b: 2, c: 3 });
  });

  it("throws a MigrationError on read when a migration fails, instead of serving unmigrated data", async () => {
    const key = freshKey();
    await seed(key, "not an object");
    const item = defineVersionedItem(key, {
      fallback: {},
      version: 2,
      migrations: { 2: migrateDraftV2 },
    });
    await expect(item.getValue()).rejects.toBeInstanceOf(MigrationError);
  });

  it("refuses writes too after a failed migration, so a bad default never replaces the data", async () => {
    const key = freshKey();
    await seed(key, "not an object");
    const item = defineVersionedItem(key, {
      fallback: {},
      version: 2,
      migrations: { 2: migrateDraftV2 },
    });
    await expect(item.setValue({ values: {}, preset: null })).rejects.toBeInstanceOf(
      MigrationError,
    );
  });

  it("keeps the stored data and its version untouched when a migration fails", async () => {
    const key = freshKey();
    await seed(key, "not an object");
    const item = defineVersionedItem(key, {
      fallback: {},
      version: 2,
      migrations: { 2: migrateDraftV2 },
    });
    await item.getValue().catch(() => undefined);
    const name = key.slice("local:".length);
    expect(await fakeBrowser.storage.local.get([name, `${name}$`])).toEqual({
      [name]: "not an object",
    });
  });

  it("refuses to read data written by a newer version", async () => {
    const key = freshKey();
    await seed(key, { n: 5 }, 3);
    const item = defineVersionedItem(key, { fallback: { n: 0 }, version: 2, migrations: {} });
    await expect(item.getValue()).rejects.toThrow(/downgrade/i);
  });
});

describe("compose draft migration v1 → v2", () => {
  it("wraps v1's flat form values with no preset", () => {
    expect(migrateDraftV2({ prompt: "lofi", duration: "90", use_erg_tag: false })).toEqual({
      values: { prompt: "lofi", duration: "90", use_erg_tag: false },
      preset: null,
    });
  });

  it("refuses a v1 value whose fields are not form values", () => {
    expect(() => migrateDraftV2({ prompt: { nested: true } })).toThrow(/prompt/);
  });

  it("refuses a v1 value that is not an object", () => {
    expect(() => migrateDraftV2(["lofi"])).toThrow(TypeError);
  });
});

describe("snapshot migration v1 → v2", () => {
  it("keeps every v1 field and adds no known refusals", () => {
    const { deletions: _, ...v2 } = { ...EMPTY_SNAPSHOT, auth: "signed_in" as const };
    const { webhookRefusals: __, ...v1 } = v2;
    expect(migrateSnapshotV2(v1)).toEqual(v2);
  });

  it("refuses a v1 value that is not an object", () => {
    expect(() => migrateSnapshotV2("snapshot")).toThrow(TypeError);
  });
});

describe("snapshot migration v2 → v3", () => {
  it("keeps every v2 field and knows of no deletions yet", () => {
    const { deletions: _, ...v2 } = { ...EMPTY_SNAPSHOT, auth: "signed_in" as const };
    expect(migrateSnapshotV3(v2)).toEqual({ ...EMPTY_SNAPSHOT, auth: "signed_in" });
  });

  it("refuses a v2 value that is not an object", () => {
    expect(() => migrateSnapshotV3(["snapshot"])).toThrow(TypeError);
  });
});

describe("snapshot migration v3 → v4", () => {
  it("keeps every v3 field and knows of no sign-in wait yet", () => {
    const { signInRetryAt: _, ...v3 } = {
      ...EMPTY_SNAPSHOT,
      signInProblem: "rate_limited" as const,
    };
    expect(migrateSnapshotV4(v3)).toEqual({ ...EMPTY_SNAPSHOT, signInProblem: "rate_limited" });
  });

  it("refuses a v3 value that is not an object", () => {
    expect(() => migrateSnapshotV4(null)).toThrow(TypeError);
  });
});
