import { describe, expect, it } from "vitest";
import { task } from "../../testing/fixtures.ts";
import {
  DELETIONS_KEPT,
  SNAPSHOT_TASK_LIMIT,
  activeCount,
  mergeTasks,
  newlyFinished,
  noteDeletions,
} from "./snapshot.ts";

const T1 = "2025-01-01T10:00:01.000Z";
const T2 = "2025-01-01T10:00:02.000Z";

describe("task list merging", () => {
  it("orders tasks newest first", () => {
    const old = task({ id: "a", created_at: "2025-01-01T09:00:00.000Z" });
    const recent = task({ id: "b", created_at: "2025-01-01T11:00:00.000Z" });
    expect(mergeTasks([old], [recent]).map((t) => t.id)).toEqual(["b", "a"]);
  });

  it("replaces a task with a newer row of it", () => {
    const merged = mergeTasks(
      [task({ status: "waiting" })],
      [task({ status: "in_progress", updated_at: "2025-01-01T10:01:00.000Z" })],
    );
    expect(merged.map((t) => t.status)).toEqual(["in_progress"]);
  });

  it("keeps the known row when the fresh one is older", () => {
    const merged = mergeTasks(
      [task({ status: "success", updated_at: "2025-01-01T10:09:00.000Z" })],
      [task({ status: "in_progress", updated_at: "2025-01-01T10:01:00.000Z" })],
    );
    expect(merged.map((t) => t.status)).toEqual(["success"]);
  });

  it("drops a task whose fresh row is deleted, and takes it back when restored", () => {
    const kept = task({ id: "a" });
    const deleted = task({
      id: "b",
      deleted_at: "2025-01-01T10:02:00.000Z",
      updated_at: "2025-01-01T10:02:00.000Z",
    });
    const merged = mergeTasks([kept, task({ id: "b" })], [deleted]);
    expect(merged.map((t) => t.id)).toEqual(["a"]);
    const restored = task({ id: "b", updated_at: "2025-01-01T10:03:00.000Z" });
    expect(
      mergeTasks(merged, [restored])
        .map((t) => t.id)
        .sort(),
    ).toEqual(["a", "b"]);
  });

  it("never lists a deleted row that arrives on a page", () => {
    expect(mergeTasks([], [task({ deleted_at: "2025-01-01T10:02:00.000Z" })])).toEqual([]);
  });

  it(`keeps at most ${SNAPSHOT_TASK_LIMIT} tasks`, () => {
    const many = Array.from({ length: SNAPSHOT_TASK_LIMIT + 5 }, (_, i) =>
      task({ id: `t${i}`, created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() }),
    );
    const merged = mergeTasks([], many);
    expect(merged).toHaveLength(SNAPSHOT_TASK_LIMIT);
    expect(merged[0]?.id).toBe(`t${SNAPSHOT_TASK_LIMIT + 4}`);
  });
});

describe("finished tasks and the active count", () => {
  it("lists a task that went from active to final", () => {
    expect(
      newlyFinished([task({ status: "in_progress" })], [task({ status: "failure" })]).map(
        (t) => t.id,
      ),
    ).toEqual(["t1"]);
  });

  it("does not list a task that was already final", () => {
    expect(newlyFinished([task({ status: "success" })], [task({ status: "success" })])).toEqual([]);
  });

  it("does not list a task seen for the first time already final (nothing was watched)", () => {
    expect(newlyFinished([], [task({ status: "success" })])).toEqual([]);
  });

  it("counts an unknown outcome as final, not active", () => {
    expect(activeCount([task({ status: "unknown" }), task({ id: "t2", status: "queued" })])).toBe(
      1,
    );
  });
});

describe("noting deletions", () => {
  const deleted = (id: string, at: string) => task({ id, deleted_at: at, updated_at: at });

  it("notes a deleted row by its id and time, newest first", () => {
    expect(noteDeletions([], [deleted("a", T1), deleted("b", T2)])).toEqual([
      { id: "b", at: T2 },
      { id: "a", at: T1 },
    ]);
  });

  it("forgets a deletion when a newer live row comes (a restore)", () => {
    expect(noteDeletions([{ id: "a", at: T1 }], [task({ id: "a", updated_at: T2 })])).toEqual([]);
  });

  it("keeps a deletion when an older live row comes late (a stale page)", () => {
    const known = [{ id: "a", at: T2 }];
    expect(noteDeletions(known, [task({ id: "a", updated_at: T1 })])).toBe(known);
  });

  it("keeps only the newest deletions", () => {
    const rows = Array.from({ length: DELETIONS_KEPT + 1 }, (_, i) =>
      deleted(`t${String(i)}`, new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString()),
    );
    const noted = noteDeletions([], rows);
    expect(noted).toHaveLength(DELETIONS_KEPT);
    expect(noted.map((d) => d.id)).not.toContain("t0");
  });
});
