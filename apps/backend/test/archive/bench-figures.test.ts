import { describe, expect, it } from "vitest";
import { columns } from "../../bench/lib/report.ts";
import {
  compareP99,
  MIN_SAMPLES,
  p99Figure,
  type P99Comparison,
  type Sample,
} from "../../bench/suites/archiving-figures.ts";

/** Item 9 of `pnpm bench`: each p99 while archiving against twice its same-run reference. */
const comparison = (loaded: number, reference: number, counts = [300, 300]): P99Comparison => ({
  loaded,
  reference,
  counts: [counts[0] ?? 0, counts[1] ?? 0],
  cycleRatios: [1.5, 2.1],
});

describe("item 9's p99 figures (bench)", () => {
  it("reports a p99 within 2× its no-archiving reference as met, and one over it as missed by how much", () => {
    const within = p99Figure("GET /api/me p99 while archiving [pglite]", comparison(9, 5));
    expect(within).toMatchObject({ met: true, ratio: 1.8 });
    expect(columns(within)).toEqual([
      "GET /api/me p99 while archiving [pglite]",
      "×1.8",
      "9 ms",
      "no archiving, same run: 5 ms",
      "≤ 2× the same p99 without archiving",
      "met",
    ]);
    const over = p99Figure("webhook delivery p99 while archiving [pg]", comparison(25, 5));
    expect(over).toMatchObject({ met: false, shortBy: "5× the reference" });
    expect(columns(over)[5]).toBe("MISSED");
  });

  it("does not call a p99 met when either side has fewer samples than it needs", () => {
    const few = p99Figure("webhook delivery p99 while archiving [pg]", comparison(6, 5, [300, 35]));
    expect(few.met).toBe(false);
    expect(few.shortBy).toBe(`too few samples to judge: 300 / 35, ${MIN_SAMPLES} needed each`);
    expect(p99Figure("x", comparison(6, 5, [MIN_SAMPLES, MIN_SAMPLES])).met).toBe(true);
  });

  it("pools the samples of every archive and of every reference window, and leaves out the time between", () => {
    // Two cycles: reference 0–10 then archive 10–20, a gap, reference 30–40 then archive 40–50.
    const cycles = [
      { reference: [0, 10] as [number, number], archive: [10, 20] as [number, number] },
      { reference: [30, 40] as [number, number], archive: [40, 50] as [number, number] },
    ];
    const samples: Sample[] = [];
    const add = (count: number, at: number, ms: number) => {
      for (let i = 0; i < count; i += 1) samples.push([at, ms]);
    };
    add(20, 5, 1); // cycle 1: 20 samples a side, so its p99 is its maximum
    add(20, 15, 2);
    add(180, 35, 1); // cycle 2: 180 a side
    add(180, 45, 2);
    add(100, 25, 1_000); // between the cycles: in no window
    samples.push([16, 40]); // one pause, in the first archive
    const pooled = compareP99(samples, cycles);
    expect(pooled).toMatchObject({ loaded: 2, reference: 1, counts: [201, 200] });
    expect(pooled.cycleRatios).toEqual([40, 2]);
  });
});
