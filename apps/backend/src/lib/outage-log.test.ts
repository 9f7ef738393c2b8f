import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "./logger.ts";
import { createOutageLog } from "./outage-log.ts";

/** A logger whose lines are kept, and an outage log on it whose ping fails while `down`. */
function setUp() {
  const lines: { msg: string; [key: string]: unknown }[] = [];
  const logger = createLogger("info", {
    write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }),
  });
  const state = { down: true, pings: 0 };
  const outages = createOutageLog({
    logger,
    ping: () => {
      state.pings += 1;
      return state.down ? Promise.reject(new Error("57P01")) : Promise.resolve();
    },
  });
  const said = (msg: string) => lines.filter((line) => line.msg === msg);
  return { lines, outages, state, said };
}

describe("the outage log", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("logs one warning when requests start failing, however many fail in the same seconds", () => {
    const { outages, said } = setUp();
    for (let i = 0; i < 50; i += 1) outages.report({ requestId: `r${i}` });
    expect(said("database unavailable")).toHaveLength(1);
    expect(said("database still unavailable")).toHaveLength(0);
    outages.stop();
  });

  it("repeats the warning at most every 10 s while it lasts, counting what it stands for", async () => {
    const { outages, said } = setUp();
    for (let second = 0; second < 25; second += 1) {
      for (let i = 0; i < 5; i += 1) outages.report({});
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(said("database unavailable")).toHaveLength(1);
    expect(said("database still unavailable")).toHaveLength(2);
    expect(said("database still unavailable")[0]).toMatchObject({ failuresSinceLastLine: 50 });
    outages.stop();
  });

  it("says once that the database is reachable again, when a probe answers", async () => {
    const { outages, state, said } = setUp();
    outages.report({});
    await vi.advanceTimersByTimeAsync(5_000);
    expect(said("database reachable again")).toHaveLength(0);
    expect(state.pings).toBeGreaterThanOrEqual(4);
    state.down = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(said("database reachable again")).toEqual([
      expect.objectContaining({ failures: 1, outageMs: expect.any(Number) as number }),
    ]);
    const pings = state.pings;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(state.pings).toBe(pings);
    // The next failure is a new outage, logged as one.
    outages.report({});
    expect(said("database unavailable")).toHaveLength(2);
    outages.stop();
  });
});
