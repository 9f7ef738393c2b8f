import { percentile } from "./stats.ts";

/**
 * How busy a benchmark process itself was: its event-loop delay and CPU share over a window. A
 * load generator that lags adds its lag to every latency it times, so the figures say how much.
 */
export interface ProcessLoad {
  /** Event-loop delay, ms: how late a 1 ms timer fired. */
  lagP50: number;
  lagP99: number;
  lagMax: number;
  /** CPU time (user + system) over the window, % of one core. */
  cpuPercent: number;
}

/**
 * Milliseconds on the machine's monotonic clock (CLOCK_MONOTONIC): the same clock in every
 * process, so one process can time a send and another the arrival it causes.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

const CPU_EVERY_MS = 50;

/**
 * Samples this process from now on, each sample stamped on the monotonic clock, so the load of
 * a window known only afterwards (another process's measured window) can be read: a 1 ms timer's
 * delay at every turn, CPU time every 50 ms.
 */
export function sampleProcessLoad() {
  const lags: [at: number, lateMs: number][] = [];
  const cpu: [at: number, micros: number][] = [];
  const cpuNow = () => {
    const used = process.cpuUsage();
    cpu.push([monotonicMs(), used.user + used.system]);
  };
  let last = monotonicMs();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = monotonicMs();
    lags.push([now, Math.max(0, now - last - 1)]);
    if (now - (cpu.at(-1)?.[0] ?? 0) >= CPU_EVERY_MS) cpuNow();
    last = now;
    timer = setTimeout(tick, 1);
  };
  cpuNow();
  timer = setTimeout(tick, 1);
  return {
    stop(): void {
      clearTimeout(timer);
      cpuNow();
    },
    /** The load between two monotonic times (ms). */
    between(from: number, to: number): ProcessLoad {
      const late = lags.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
      const before = cpu.filter(([at]) => at <= from).at(-1) ?? cpu[0];
      const after = cpu.find(([at]) => at >= to) ?? cpu.at(-1);
      const span = (after?.[0] ?? 0) - (before?.[0] ?? 0);
      return {
        lagP50: percentile(late, 50),
        lagP99: percentile(late, 99),
        lagMax: late.reduce((a, b) => Math.max(a, b), 0),
        cpuPercent: span > 0 ? ((after?.[1] ?? 0) - (before?.[1] ?? 0)) / 10 / span : Number.NaN,
      };
    },
  };
}
