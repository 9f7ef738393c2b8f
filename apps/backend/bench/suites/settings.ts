/**
 * Knobs of `pnpm bench`, from the environment (turbo passes `BENCH_*`). The defaults keep the
 * whole run, builds included, under ten minutes on a 2-core machine.
 */
export interface BenchSettings {
  /** Interleaved rounds of each comparison (figures are medians over rounds). */
  rounds: number;
  warmupMs: number;
  /** Measured duration of one throughput run. */
  durationMs: number;
  /** Duration of one duplicate storm. */
  dupMs: number;
  connections: number;
  /** Idle streams opened against each server, and rounds of that comparison. */
  streams: number;
  idleRounds: number;
  /** Live-event runs: connected clients and events per second. */
  liveClients: number;
  liveRate: number;
  liveMs: number;
  /** Emulator clock scale of the polling benchmark. */
  clockScale: number;
  /** Item 9: time each database may take, from its backend's start to its last archive. */
  archiveBudgetMs: number;
  /** Suites to run (ids 1–9); all when empty. */
  only: Set<string>;
  log(message: string): void;
}

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

export function readSettings(log: (message: string) => void): BenchSettings {
  return {
    rounds: number("BENCH_ROUNDS", 3),
    warmupMs: number("BENCH_WARMUP_SECONDS", 2) * 1000,
    durationMs: number("BENCH_SECONDS", 4) * 1000,
    dupMs: number("BENCH_DUP_SECONDS", 2) * 1000,
    connections: number("BENCH_CONNECTIONS", 50),
    streams: number("BENCH_STREAMS", 12_000),
    idleRounds: number("BENCH_IDLE_ROUNDS", 1),
    liveClients: number("BENCH_LIVE_CLIENTS", 1_000),
    liveRate: number("BENCH_LIVE_RATE", 1_000),
    liveMs: number("BENCH_LIVE_SECONDS", 5) * 1000,
    clockScale: number("BENCH_CLOCK_SCALE", 40),
    archiveBudgetMs: number("BENCH_ARCHIVE_SECONDS", 110) * 1000,
    only: new Set(
      (process.env.BENCH_ONLY ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    log,
  };
}
