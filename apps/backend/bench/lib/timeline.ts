import { readFileSync } from "node:fs";
import { fmt, percentile } from "./stats.ts";

/**
 * Where an open-loop run's slowest deliveries were: beside a stall of the backend, of the load
 * generator, or a GC (bench/lib/stall-probe.mjs records them in each process, in wall-clock
 * time). Each share is given beside the same share of all deliveries, so that a stall that
 * merely happens often is not mistaken for the cause of the tail.
 */

/** What the stall probe wrote: [start, duration] and [start, duration, kind], in ms. */
export interface ProbeRecord {
  stalls: [number, number][];
  gcs: [number, number, number][];
}

export function readProbe(path: string): ProbeRecord {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as ProbeRecord;
  } catch (error) {
    throw new Error(`no stall record at ${path} (did the process exit normally?)`, {
      cause: error,
    });
  }
}

type Span = readonly [number, number, ...unknown[]];

/** Spans of `spans` overlapping [from, to], as a predicate (spans sorted by start). */
function overlapping(spans: readonly Span[]) {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const longest = sorted.reduce((max, s) => Math.max(max, s[1]), 0);
  return (from: number, to: number): boolean => {
    // The first span that could reach `from`: none starting before from - longest can.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid]?.[0] ?? 0) < from - longest) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < sorted.length; i += 1) {
      const [start, duration] = sorted[i] ?? [0, 0];
      if (start > to) return false;
      if (start + duration >= from) return true;
    }
    return false;
  };
}

const spread = (spans: readonly Span[]) =>
  spans.length === 0
    ? "none"
    : `${spans.length}, p99 ${fmt(
        percentile(
          spans.map((s) => s[1]),
          99,
        ),
      )} ms, max ${fmt(Math.max(...spans.map((s) => s[1])))} ms`;

/** One line on one run: the deliveries at or over its p99, and the stalls they overlapped. */
export function describeTimeline(
  deliveries: readonly [number, number][],
  backend: ProbeRecord,
  load: ProbeRecord,
): string {
  if (deliveries.length === 0) return "no deliveries measured";
  const from = deliveries[0]?.[0] ?? 0;
  const to = Math.max(...deliveries.map(([due, latency]) => due + latency));
  const within = (spans: readonly Span[]) => spans.filter(([s, d]) => s + d >= from && s <= to);
  const [backendStalls, loadStalls] = [within(backend.stalls), within(load.stalls)];
  const gcs = within([...backend.gcs, ...load.gcs]);
  const tests = {
    backend: overlapping(backendStalls),
    load: overlapping(loadStalls),
    gc: overlapping(gcs),
  };
  const p99 = percentile(
    deliveries.map(([, latency]) => latency),
    99,
  );
  const share = (set: readonly [number, number][], hit: (from: number, to: number) => boolean) =>
    `${fmt((100 * set.filter(([due, latency]) => hit(due, due + latency)).length) / set.length)} %`;
  const both = (a: number, b: number) => tests.backend(a, b) && tests.load(a, b);
  const slow = deliveries.filter(([, latency]) => latency >= p99);
  const pair = (hit: (from: number, to: number) => boolean) =>
    `${share(slow, hit)} (all: ${share(deliveries, hit)})`;
  return (
    `${slow.length} deliveries at or over p99 ${fmt(p99)} ms overlapped a stall of the backend ${pair(tests.backend)}, ` +
    `of the load generator ${pair(tests.load)}, of both ${pair(both)}, a GC ${pair(tests.gc)}; ` +
    `stalls ≥ 4 ms: backend ${spread(backendStalls)}; load generator ${spread(loadStalls)}; GCs ${spread(gcs)}`
  );
}
