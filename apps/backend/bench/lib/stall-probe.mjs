// Preload (`node --import <this file>`) recording when a process could not run: event-loop stalls
// and GC pauses, in wall-clock milliseconds so that two processes' records line up. Written as
// JSON to $OVERTURE_STALL_PROBE_OUT when the process exits. Used by `bench/compare-intake.ts`
// with BENCH_TIMELINE=1 (bench/lib/timeline.ts reads it). Plain JavaScript: the backend under
// test is `node dist/index.js`, with no TypeScript loader in front of it.
//
// The probe costs a timer every TICK_MS (~500 wakeups/s): a diagnostic, never on in `pnpm bench`.
import { writeFileSync } from "node:fs";
import { PerformanceObserver, performance } from "node:perf_hooks";

const out = process.env.OVERTURE_STALL_PROBE_OUT;
const TICK_MS = 2;
/** A tick this much later than due is a stall (a busy loop, or the process not scheduled). */
const STALL_MS = 4;

if (out) {
  const wall = () => performance.timeOrigin + performance.now();
  /** [start, duration] in ms. */
  const stalls = [];
  /** [start, duration, kind] in ms; kind as Node names it (1 minor, 2 major, 4 incremental, 8 weak). */
  const gcs = [];
  let last = wall();
  setInterval(() => {
    const now = wall();
    if (now - last > TICK_MS + STALL_MS) stalls.push([last, now - last - TICK_MS]);
    last = now;
  }, TICK_MS).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      gcs.push([performance.timeOrigin + entry.startTime, entry.duration, entry.detail?.kind ?? 0]);
  }).observe({ entryTypes: ["gc"] });
  process.on("exit", () => {
    writeFileSync(out, JSON.stringify({ pid: process.pid, stalls, gcs }));
  });
}
