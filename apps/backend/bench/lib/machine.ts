import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem, type as osType, release } from "node:os";
import { postgresVersion } from "./databases.ts";

/** What the figures were measured on: they only mean something beside this. */
export interface Machine {
  cpu: string;
  cores: number;
  ramGb: number;
  os: string;
  node: string;
  postgres: string;
  /** 1, 5 and 15 minute load averages when the run started. */
  loadAtStart: number[];
  fdLimit: string;
}

function fdLimit(): string {
  try {
    const limits = readFileSync("/proc/self/limits", "utf8");
    const line = limits.split("\n").find((l) => l.startsWith("Max open files"));
    const [soft, hard] = line?.replace("Max open files", "").trim().split(/\s+/) ?? [];
    return `${soft ?? "?"} (hard ${hard ?? "?"})`;
  } catch {
    return "unknown";
  }
}

export async function describeMachine(): Promise<Machine> {
  const loadAtStart = loadavg().map((l) => Math.round(l * 100) / 100);
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    ramGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    postgres: await postgresVersion().catch((error: unknown) => `unreachable (${String(error)})`),
    loadAtStart,
    fdLimit: fdLimit(),
  };
}

export const loadNow = () => loadavg().map((l) => Math.round(l * 100) / 100);

/**
 * Linux pressure stall information: the µs during which at least one runnable task waited for
 * a CPU. Two readings give the share of the time between them; undefined where PSI is missing.
 */
export function cpuStallMicros(): number | undefined {
  try {
    const some = readFileSync("/proc/pressure/cpu", "utf8").split("\n")[0] ?? "";
    const total = /total=(\d+)/.exec(some)?.[1];
    return total === undefined ? undefined : Number(total);
  } catch {
    return undefined;
  }
}

/** Share (0–100 %) of the wall time since `since` (performance.now) during which tasks waited for a CPU. */
export function cpuPressureSince(
  stallAtStart: number | undefined,
  since: number,
): number | undefined {
  const now = cpuStallMicros();
  if (now === undefined || stallAtStart === undefined) return undefined;
  return Math.round(((now - stallAtStart) / ((performance.now() - since) * 1000)) * 100);
}

/** Jiffies of all CPUs from /proc/stat: idle (idle + iowait) and total; undefined off Linux. */
export function cpuTimes(): { idle: number; total: number } | undefined {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/** Share (0–100 %) of the machine's CPU time left idle between two {@link cpuTimes} readings. */
export function idleShare(
  before: ReturnType<typeof cpuTimes>,
  after: ReturnType<typeof cpuTimes>,
): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (100 * (after.idle - before.idle)) / (after.total - before.total);
}
