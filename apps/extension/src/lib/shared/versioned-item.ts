import { storage, type StorageItemKey, type WxtStorageItem } from "wxt/utils/storage";

export interface VersionedItemOptions<T> {
  fallback: T;
  version: number;
  /** `migrations[n]` turns a version n−1 value into version n. Throw when the value is not understood. */
  migrations?: Record<number, (old: unknown) => unknown>;
}

/** A typed storage item whose reads and writes wait for its migrations and fail if they failed. */
export interface VersionedItem<T> {
  readonly key: StorageItemKey;
  readonly fallback: T;
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
  watch(callback: (value: T) => void): () => void;
}

/**
 * Wraps WXT's `storage.defineItem` so that a failed migration is never silent. WXT logs a failed
 * migration and then serves the old, unmigrated value; here every read and write rejects with
 * WXT's `MigrationError` instead, and the stored data stays exactly as it was (WXT writes only
 * after every step succeeded), so a later version can still migrate it.
 */
export function defineVersionedItem<T>(
  key: StorageItemKey,
  options: VersionedItemOptions<T>,
): VersionedItem<T> {
  const item: WxtStorageItem<T, Record<string, unknown>> = storage.defineItem<T>(key, {
    fallback: options.fallback,
    version: options.version,
    migrations: options.migrations ?? {},
  });
  let ready: Promise<void> | undefined;
  // WXT's own pass runs first (getMeta waits for it); running `migrate` again is a no-op when it
  // succeeded and re-throws the original failure when it did not.
  const migrated = (): Promise<void> => {
    ready ??= item
      .getMeta()
      .then(() => item.migrate())
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
    return ready;
  };
  return {
    key,
    fallback: options.fallback,
    getValue: async () => {
      await migrated();
      return item.getValue();
    },
    setValue: async (value) => {
      await migrated();
      await item.setValue(value);
    },
    removeValue: async () => {
      await migrated();
      await item.removeValue();
    },
    watch: (callback) =>
      item.watch((value) => {
        callback(value);
      }),
  };
}
