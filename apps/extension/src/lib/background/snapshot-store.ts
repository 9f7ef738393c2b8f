import { EMPTY_SNAPSHOT, type Snapshot } from "../shared/snapshot.ts";
import { snapshotItem } from "../shared/storage.ts";

/**
 * Serialised read-modify-write of the snapshot: live events, alarm checks and requests all update
 * it, and two interleaved updates must not lose one another's changes.
 */
export function createSnapshotStore(now: () => number) {
  let queue: Promise<unknown> = Promise.resolve();

  function update(
    change: (current: Snapshot) => Snapshot,
  ): Promise<{ before: Snapshot; after: Snapshot }> {
    const run = queue.then(async () => {
      const before = await snapshotItem.getValue();
      const changed = change(before);
      // An unchanged snapshot is not rewritten: every write wakes every open view.
      if (changed === before) return { before, after: before };
      const after = { ...changed, updatedAt: now() };
      await snapshotItem.setValue(after);
      return { before, after };
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    read: () => snapshotItem.getValue(),
    update,
    /** Back to the signed-out screen, keeping only what describes the connection. */
    reset: (keep: Partial<Snapshot> = {}) =>
      update((current) => ({ ...EMPTY_SNAPSHOT, connectivity: current.connectivity, ...keep })),
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
