import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * How busy a benchmark process itself was: its event-loop delay and CPU share over a window. A
 * load generator that lags adds its lag to every latency it times, so the figures say how much.
 */
export interface ProcessLoad {
  /** Event-loop delay, ms (1 ms resolution). */
  lagP50: number;
  lagP99: number;
  lagMax: number;
  /** CPU time (user + system) over the window, % of one core. */
  cpuPercent: number;
}

/** Starts watching this process; `stop()` ends the window and reads it. */
export function watchProcessLoad(): { stop(): ProcessLoad } {
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  return {
    stop() {
      lag.disable();
      const used = process.cpuUsage(cpu);
      const ms = Math.max(1, performance.now() - started);
      return {
        lagP50: lag.percentile(50) / 1e6,
        lagP99: lag.percentile(99) / 1e6,
        lagMax: lag.max / 1e6,
        cpuPercent: ((used.user + used.system) / 1000 / ms) * 100,
      };
    },
  };
}

/**
 * Milliseconds on the machine's monotonic clock (CLOCK_MONOTONIC): the same clock in every
 * process, so one process can time a send and another the arrival it causes.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
