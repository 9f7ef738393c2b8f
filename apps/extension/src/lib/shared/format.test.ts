import { describe, expect, it } from "vitest";
import { task } from "../../testing/fixtures.ts";
import { clock, elapsedMs, linkState, remaining, taskTitle } from "./format.ts";

const NOW = Date.parse("2025-01-01T12:00:00.000Z");

describe("task texts", () => {
  it("counts elapsed time to now while a task is active", () => {
    expect(clock(elapsedMs(task({ created_at: "2025-01-01T11:57:30.000Z" }), NOW))).toBe("2:30");
  });

  it("counts elapsed time to the end once a task finished", () => {
    expect(
      clock(
        elapsedMs(
          task({ created_at: "2025-01-01T11:00:00.000Z", finished_at: "2025-01-01T11:04:05.000Z" }),
          NOW,
        ),
      ),
    ).toBe("4:05");
  });

  it("stops the clock at a final state that has no finish time (its last update)", () => {
    const unknown = task({
      status: "unknown",
      created_at: "2025-01-01T11:00:00.000Z",
      updated_at: "2025-01-01T11:01:10.000Z",
      finished_at: null,
    });
    expect(clock(elapsedMs(unknown, NOW))).toBe("1:10");
    expect(elapsedMs(unknown, NOW + 60_000)).toBe(elapsedMs(unknown, NOW));
  });

  it("shows hours past an hour", () => {
    expect(clock(3_725_000)).toBe("1:02:05");
  });

  it("says how long the result link still works", () => {
    const t = task({ file_url: "http://x/f.wav", file_expires_at: "2025-01-02T11:00:00.000Z" });
    expect(linkState(t, NOW)).toEqual({ valid: true, remainingMs: 23 * 3_600_000 });
    expect(remaining(23 * 3_600_000)).toBe("23 h");
  });

  it("calls a link past its expiry invalid", () => {
    const t = task({ file_url: "http://x/f.wav", file_expires_at: "2025-01-01T11:00:00.000Z" });
    expect(linkState(t, NOW)).toEqual({ valid: false, remainingMs: 0 });
  });

  it("names a task by the start of its prompt", () => {
    expect(taskTitle(task({ params: { prompt: "x".repeat(80) } }))).toHaveLength(60);
    expect(taskTitle(task({ params: {} }))).toBe("Untitled track");
  });

  it("names a task by its library title when it has one, trimmed", () => {
    expect(taskTitle(task({ title: "  Night drive ", params: { prompt: "lofi piano" } }))).toBe(
      "Night drive",
    );
  });
});
