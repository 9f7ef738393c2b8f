import { figure, type Figure } from "../lib/report.ts";
import { fmt, median, percentile } from "../lib/stats.ts";

/** A latency sample: when it started (performance.now()) and how long it took, ms. */
export type Sample = [at: number, ms: number];
/** A stretch of the run, from and to (performance.now()). */
export type Window = [from: number, to: number];

/**
 * Samples each side needs before its p99 is judged: with 200 the p99 is the third-largest of
 * them, so one pause (a GC, the scheduler) cannot decide it alone, as it does with 20–30.
 */
export const MIN_SAMPLES = 200;
const WITHIN_2X = "≤ 2× the same p99 without archiving";

/** The durations of the samples that started within one of `windows` (each from ≤ at < to). */
export function within(samples: readonly Sample[], windows: readonly Window[]): number[] {
  return samples
    .filter(([at]) => windows.some(([from, to]) => at >= from && at < to))
    .map(([, ms]) => ms);
}

export interface P99Comparison {
  /** p99 of every sample taken while archiving, pooled over the archives. */
  loaded: number;
  /** p99 of every sample taken in the reference windows, pooled the same way. */
  reference: number;
  counts: [loaded: number, reference: number];
  /** Each cycle's own ratio (its archive beside the reference window just before it). */
  cycleRatios: number[];
}

/**
 * The p99 while archiving beside the p99 without, each over the samples of all its windows
 * pooled. Pooling, not a median of the cycles' ratios: a cycle holds a few dozen webhooks, so
 * its p99 is about its maximum, and a median of maxima is as noisy as the one round it replaces.
 */
export function compareP99(
  samples: readonly Sample[],
  cycles: readonly { reference: Window; archive: Window }[],
): P99Comparison {
  const loaded = within(
    samples,
    cycles.map((c) => c.archive),
  );
  const reference = within(
    samples,
    cycles.map((c) => c.reference),
  );
  return {
    loaded: percentile(loaded, 99),
    reference: percentile(reference, 99),
    counts: [loaded.length, reference.length],
    cycleRatios: cycles.map(
      (c) =>
        percentile(within(samples, [c.archive]), 99) /
        percentile(within(samples, [c.reference]), 99),
    ),
  };
}

/** Met when the pooled p99 while archiving is at most twice the pooled reference. */
export function p99Figure(name: string, c: P99Comparison): Figure {
  const enough = Math.min(...c.counts) >= MIN_SAMPLES;
  const met = enough && c.loaded <= 2 * c.reference;
  const shortBy = !enough
    ? `too few samples to judge: ${c.counts.join(" / ")}, ${MIN_SAMPLES} needed each`
    : `${fmt(c.loaded / c.reference)}× the reference`;
  return figure(name, c.loaded, "ms", {
    reference: { name: "no archiving, same run", value: c.reference },
    better: "lower",
    target: WITHIN_2X,
    met,
    ...(met ? {} : { shortBy }),
    note:
      `${c.counts[0]} samples while archiving, ${c.counts[1]} without; ` +
      `each cycle alone ${c.cycleRatios.map((r) => `×${fmt(r)}`).join(", ")}`,
  });
}

/** The median time to archive beside the median time to read the same WAV, one of each a cycle. */
export function archiveFigure(name: string, archiveMs: number[], readMs: number[]): Figure {
  return figure(name, median(archiveMs), "ms", {
    reference: { name: "reading its WAV from the emulator", value: median(readMs) },
    better: "lower",
    note:
      `median of ${archiveMs.length} archives (${archiveMs.map((ms) => fmt(ms)).join(", ")} ms) ` +
      `and of as many reads (${readMs.map((ms) => fmt(ms)).join(", ")} ms)`,
  });
}
