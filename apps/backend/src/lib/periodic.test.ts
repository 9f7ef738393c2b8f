import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "./logger.ts";
import { periodicRounds } from "./periodic.ts";

function setUp(outages?: { report: (fields: Record<string, unknown>) => void }) {
  const lines: { msg: string; [key: string]: unknown }[] = [];
  const logger = createLogger("info", {
    write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }),
  });
  const state = { error: undefined as Error | undefined };
  const rounds = periodicRounds({
    run: () => (state.error ? Promise.reject(state.error) : Promise.resolve(1)),
    fallback: 0,
    intervalMs: 1_000,
    logger,
    what: "test round",
    ...(outages ? { outages } : {}),
  });
  return { lines, rounds, state, said: (msg: string) => lines.filter((l) => l.msg === msg) };
}

describe("periodic rounds", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("logs a run of failed rounds once, then at most once a minute, and once when it works again", async () => {
    const { rounds, state, said } = setUp();
    state.error = new Error("boom");
    for (let second = 0; second < 90; second += 1) {
      expect(await rounds.runOnce()).toBe(0);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(said("test round failed")).toHaveLength(2);
    expect(said("test round failed")[1]).toMatchObject({ failures: 61 });
    state.error = undefined;
    expect(await rounds.runOnce()).toBe(1);
    expect(await rounds.runOnce()).toBe(1);
    expect(said("test round works again")).toEqual([expect.objectContaining({ failures: 90 })]);
  });

  it("reports a round that finds the database unavailable to the outage log, not its own line", async () => {
    const reported: Record<string, unknown>[] = [];
    const { rounds, state, said } = setUp({ report: (fields) => reported.push(fields) });
    state.error = Object.assign(new Error("terminating connection"), { code: "57P01" });
    await rounds.runOnce();
    await rounds.runOnce();
    expect(reported).toEqual([
      expect.objectContaining({ worker: "test round" }),
      expect.objectContaining({ worker: "test round" }),
    ]);
    expect(said("test round failed")).toEqual([]);
    state.error = undefined;
    await rounds.runOnce();
    expect(said("test round works again")).toEqual([]);
  });
});
