import { describe, expect, it } from "vitest";
import { renderDocument } from "../../bench/lib/document.ts";
import { keptNotes, NOTES_END, NOTES_START } from "../../bench/lib/kept-notes.ts";
import type { Machine } from "../../bench/lib/machine.ts";
import { figure, type Section } from "../../bench/lib/report.ts";
import type { BenchSettings } from "../../bench/suites/settings.ts";

const machine: Machine = {
  cpu: "test CPU",
  cores: 2,
  ramGb: 1,
  os: "test OS",
  node: "v20",
  postgres: "15",
  loadAtStart: [0, 0, 0],
  fdLimit: "1024",
};

const p99 = (runs: number[], met: boolean) =>
  figure("p99 at 1.3× (c) offered", runs.toSorted((a, b) => a - b)[1] ?? 0, "ms", {
    target: "≤ 20 ms",
    met,
    runs,
    roundsMet: runs.map((r) => r <= 20),
    why: "the tail is pauses",
  });

const render = (figures: Section["figures"], notes?: string) =>
  renderDocument({
    notes,
    machine,
    loadAtEnd: [0, 0, 0],
    cpuPressure: undefined,
    totalSeconds: 60,
    sections: [{ id: "1", title: "Intake", figures, notes: [] }],
    settings: { only: new Set<string>() } as unknown as BenchSettings,
  });

describe("BENCHMARKS.md targets (bench)", () => {
  it("reports a target every round met as plainly met, with no why", () => {
    const text = render([p99([12, 15, 19], true)]);
    expect(text).toContain("1 of 1 met.");
    expect(text).toContain("- met: 1. p99 at 1.3× (c) offered — 15 ms");
    expect(text).not.toContain("the tail is pauses");
  });

  it("says when the median met a target that a round missed, and why it may miss", () => {
    const text = render([p99([19.1, 30.3, 19.9], true)]);
    expect(text).toContain("1 of 1 met, 1 of them only by the median of rounds.");
    expect(text).toContain("- met in 2 of 3 rounds: 1. p99 at 1.3× (c) offered — 19.9 ms");
    expect(text).toContain("## Targets met only by the median: a rerun may miss them");
    expect(text).toContain("(rounds: 19.1, 30.3, 19.9 ms). the tail is pauses");
    expect(text).toContain("| met in 2 of 3 rounds |");
  });

  it("reports a missed target as missed, with its why, and not as narrow", () => {
    const text = render([p99([19, 24, 30], false)]);
    expect(text).toContain("0 of 1 met.");
    expect(text).toContain("- **missed**: 1. p99 at 1.3× (c) offered");
    expect(text).toContain("## Missed targets: by how much, and why");
    expect(text).not.toContain("only by the median");
  });
});

describe("BENCHMARKS.md notes (bench)", () => {
  const notes = `${NOTES_START}\n## Notes\n\n- the lock and the insert: 2 round trips\n${NOTES_END}`;

  it("carries the notes written by hand in the previous document into the next, as they are", () => {
    const previous = render([p99([12, 15, 19], true)], keptNotes(`before\n${notes}\nafter`));
    const next = render([p99([13, 14, 18], true)], keptNotes(previous));
    expect(keptNotes(next)).toBe(notes);
    expect(next.trimEnd().endsWith(NOTES_END)).toBe(true);
  });

  it("writes no notes when the previous document has none, or only half of their markers", () => {
    expect(keptNotes(undefined)).toBeUndefined();
    expect(keptNotes(render([p99([12, 15, 19], true)]))).toBeUndefined();
    expect(keptNotes(`${NOTES_START}\nunfinished`)).toBeUndefined();
  });
});
