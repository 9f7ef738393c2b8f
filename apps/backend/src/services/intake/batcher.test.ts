import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../../lib/errors.ts";
import { createMetrics } from "../../lib/metrics.ts";
import type { ApplyResult } from "../tasks/apply.ts";
import type { PlatformReport } from "../tasks/merge.ts";
import { createBatcher } from "./batcher.ts";

const report = (taskId: string): PlatformReport => ({
  taskId,
  source: "webhook",
  status: "in_progress",
});

function applier(batches: string[][], fail?: (ids: string[]) => Error | undefined) {
  return (reports: PlatformReport[]): Promise<ApplyResult> => {
    const ids = reports.map((r) => r.taskId);
    batches.push(ids);
    const error = fail?.(ids);
    if (error) return Promise.reject(error);
    return Promise.resolve({
      outcomes: ids.map(() => "accepted"),
      changed: ids.map(() => true),
      rows: new Map(),
      freed: [],
    });
  };
}

describe("group commit batcher", () => {
  it("commits events that arrive together in one transaction and answers each", async () => {
    const batches: string[][] = [];
    const batcher = createBatcher({
      metrics: createMetrics(),
      transact: applier(batches),
    });
    const outcomes = await Promise.all(["a", "b", "c"].map((id) => batcher.submit(report(id))));
    expect(outcomes).toEqual(["accepted", "accepted", "accepted"]);
    expect(batches).toEqual([["a", "b", "c"]]);
  });

  it("caps a transaction at maxBatch events", async () => {
    const batches: string[][] = [];
    const batcher = createBatcher({
      metrics: createMetrics(),
      transact: applier(batches),
      maxBatch: 2,
    });
    await Promise.all(["a", "b", "c"].map((id) => batcher.submit(report(id))));
    expect(batches).toEqual([["a", "b"], ["c"]]);
  });

  it("retries each event alone after a failed batch, so one poison event fails only itself", async () => {
    const batches: string[][] = [];
    const poison = (ids: string[]) =>
      ids.includes("bad") ? new Error("constraint violated") : undefined;
    const batcher = createBatcher({
      metrics: createMetrics(),
      transact: applier(batches, poison),
    });
    const results = await Promise.allSettled(
      ["a", "bad", "c"].map((id) => batcher.submit(report(id))),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(batches).toEqual([["a", "bad", "c"], ["a"], ["bad"], ["c"]]);
  });

  it("fails the whole batch at once when the database is unavailable", async () => {
    const batches: string[][] = [];
    const down = () => new DatabaseUnavailableError("down");
    const batcher = createBatcher({
      metrics: createMetrics(),
      transact: applier(batches, down),
    });
    const results = await Promise.allSettled(["a", "b"].map((id) => batcher.submit(report(id))));
    expect(results.every((r) => r.status === "rejected")).toBe(true);
    expect(batches).toEqual([["a", "b"]]);
  });

  /**
   * Submits "a", then "b" from a callback queued after the batch's turn (as a lookup's is);
   * `asked` says whether the batch is given one more turn while "b" is still to come.
   */
  async function aThenLateB(asked: boolean) {
    const batches: string[][] = [];
    let bToCome = true;
    const batcher = createBatcher({
      metrics: createMetrics(),
      transact: applier(batches),
      ...(asked ? { oneMoreTurn: () => bToCome } : {}),
    });
    const a = batcher.submit(report("a"));
    const b = new Promise((resolve) => {
      setImmediate(() => {
        bToCome = false;
        resolve(batcher.submit(report("b")));
      });
    });
    await Promise.all([a, b]);
    return batches;
  }

  it("commits what a later callback of the same turn submits in the next batch", async () => {
    expect(await aThenLateB(false)).toEqual([["a"], ["b"]]);
  });

  it("gives a batch one more turn when asked, so what is submitted in it joins", async () => {
    expect(await aThenLateB(true)).toEqual([["a", "b"]]);
  });

  it("starts another transaction while one commits only once minToOverlap events wait", async () => {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const commit = applier(batches);
    let calls = 0;
    const batcher = createBatcher({
      metrics: createMetrics(),
      // The first transaction commits when released; the others at once.
      transact: (reports) => (calls++ === 0 ? held.then(() => commit(reports)) : commit(reports)),
      maxInFlight: 2,
      minToOverlap: 3,
    });
    const turns = async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const answers = [batcher.submit(report("a"))];
    await turns();
    answers.push(batcher.submit(report("b")), batcher.submit(report("c")));
    await turns();
    expect(batches).toEqual([]); // "a" is still committing; two waiting start nothing
    answers.push(batcher.submit(report("d")));
    await turns();
    expect(batches).toEqual([["b", "c", "d"]]);
    release();
    await Promise.all(answers);
    expect(batches).toEqual([["b", "c", "d"], ["a"]]);
  });

  it("gives a batch one more turn only once, however long it is asked to wait", async () => {
    const batches: string[][] = [];
    const batcher = createBatcher({
      metrics: createMetrics(),
      transact: applier(batches),
      oneMoreTurn: () => true,
    });
    expect(await batcher.submit(report("a"))).toBe("accepted");
    expect(batches).toEqual([["a"]]);
  });
});
