/** Small statistics helpers: percentiles of latency samples, medians of repeated runs. */

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return Number.NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarise(samples: readonly number[]): LatencySummary {
  return {
    count: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: samples.reduce((a, b) => Math.max(a, b), 0),
  };
}

/** A number for a table: 3 significant digits, thousands separated. */
export function fmt(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en");
  return Number(value.toPrecision(digits)).toLocaleString("en", { maximumFractionDigits: 3 });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
