import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pgbenchScript } from "./minimal-sql.ts";
import { summarise, type LatencySummary } from "./stats.ts";

export interface PgbenchResult {
  perSecond: number;
  latency: LatencySummary;
}

/** Whether `pgbench` is on the PATH (the reference is skipped without it). */
export function hasPgbench(): boolean {
  return spawnSync("pgbench", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * pgbench's own client running the minimal transaction (lib/minimal-sql.ts) at `clients`
 * connections for whole seconds; latency percentiles from its per-transaction log.
 */
export async function runPgbench(
  url: string,
  clients: number,
  seconds: number,
  run: string,
  tasks: number,
): Promise<PgbenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "overture-pgbench-"));
  try {
    const script = join(dir, "minimal.sql");
    writeFileSync(script, pgbenchScript(run, tasks));
    const args = ["-n", "-c", String(clients), "-j", "2", "-T", String(seconds)];
    args.push("-f", script, "-l", "--log-prefix", join(dir, "log"), url);
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("pgbench", args, { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.once("error", reject);
      child.once("exit", (code) => {
        if (code === 0) resolve(text);
        else reject(new Error(`pgbench exited ${code}:\n${text.slice(-2000)}`));
      });
    });
    // Log lines: client_id transaction_no time(µs) script_no epoch epoch_µs.
    const latencies: number[] = [];
    for (const file of readdirSync(dir).filter((f) => f.startsWith("log"))) {
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
        const micros = Number(line.split(" ")[2]);
        if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
      }
    }
    const tps = /tps = ([\d.]+)/.exec(output)?.[1];
    return {
      perSecond: tps ? Number(tps) : latencies.length / seconds,
      latency: summarise(latencies),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
