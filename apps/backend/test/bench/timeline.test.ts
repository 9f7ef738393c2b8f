import { describe, expect, it } from "vitest";
import { describeTimeline, type ProbeRecord } from "../../bench/lib/timeline.ts";

const none: ProbeRecord = { stalls: [], gcs: [] };
/**
 * 100 deliveries due 10 ms apart from t = 0, taking 5–5.98 ms, but the last one 50 ms: the p99 is
 * 5.98 ms, and the two at or over it are the one due at 980 (to 985.98) and the one at 990 (to 1040).
 */
const deliveries: [number, number][] = Array.from({ length: 100 }, (_, i) => [
  i * 10,
  i === 99 ? 50 : 5 + i / 100,
]);

describe("bench timeline", () => {
  it("counts a slow delivery that overlaps a backend stall, beside the share of all deliveries", () => {
    const backend: ProbeRecord = { stalls: [[1_000, 8]], gcs: [] };
    const line = describeTimeline(deliveries, backend, none);
    expect(line).toContain("2 deliveries at or over p99 5.98 ms");
    expect(line).toContain("of the backend 50 % (all: 1 %)");
    expect(line).toContain("of the load generator 0 % (all: 0 %)");
  });

  it("counts a stall that began before the slow delivery was due and lasted into it", () => {
    const backend: ProbeRecord = { stalls: [[988, 4]], gcs: [] };
    expect(describeTimeline(deliveries, backend, none)).toContain("of the backend 50 % (all: 1 %)");
  });

  it("does not count a stall that ended before the slow delivery was due", () => {
    const backend: ProbeRecord = { stalls: [[900, 8]], gcs: [] };
    const line = describeTimeline(deliveries, backend, none);
    expect(line).toContain("of the backend 0 % (all: 1 %)");
  });

  it("counts a GC of either process, and both processes' stalls together", () => {
    const stalled: ProbeRecord = { stalls: [[1_010, 4]], gcs: [[1_020, 3, 1]] };
    const line = describeTimeline(deliveries, stalled, stalled);
    expect(line).toContain("of both 50 % (all: 1 %)");
    expect(line).toContain("a GC 50 % (all: 1 %)");
  });
});
