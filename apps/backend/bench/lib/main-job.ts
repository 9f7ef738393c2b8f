import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { BACKEND_DIR, childEnv, freePort } from "./procs.ts";
import { sleep } from "./stats.ts";

/**
 * The README's main job (`pnpm start`, apps/local-stack) as a user meets it: its built entry
 * started on its own, and the whole path from a fresh copy of the repository to its banner.
 */
export const REPO_ROOT = resolve(BACKEND_DIR, "../..");
const MAIN_JOB = join(REPO_ROOT, "apps/local-stack/dist/main-job.js");
const READY = "Overture is running";

interface Running {
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Spawns in its own process group, so a stop reaches every process, as Ctrl+C does. */
function spawnGroup(command: string, args: string[], cwd: string, env: Record<string, string>) {
  // Not the variables of the pnpm and turbo runs this benchmark is in (a parent pnpm turns off
  // the install of a nested one): started as from a fresh shell.
  const inherited = Object.entries(childEnv(env)).filter(
    ([name]) => !/^(npm_|pnpm_|turbo_)/i.test(name),
  );
  const child = spawn(command, args, {
    cwd,
    env: Object.fromEntries(inherited),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<number | null>((done) => {
    child.once("exit", (code) => {
      done(code);
    });
  });
  return { process: child, output: () => text, exited } satisfies Running;
}

/** Waits until the output contains `marker`; ms since `since`. */
async function waitFor(run: Running, marker: string, since: number, timeoutMs = 300_000) {
  const state = { exited: false };
  void run.exited.then(() => (state.exited = true));
  while (!run.output().includes(marker)) {
    if (state.exited) throw new Error(`exited before "${marker}":\n${run.output().slice(-3_000)}`);
    if (performance.now() - since > timeoutMs) throw new Error(`no "${marker}" in ${timeoutMs} ms`);
    await sleep(10);
  }
  return performance.now() - since;
}

/** SIGINT to the whole group (what Ctrl+C in a terminal sends); resolves with the exit code. */
async function interrupt(run: Running): Promise<number | null> {
  const pid = run.process.pid ?? 0;
  process.kill(-pid, "SIGINT");
  const timer = setTimeout(() => {
    process.kill(-pid, "SIGKILL");
  }, 20_000);
  const code = await run.exited;
  clearTimeout(timer);
  return code;
}

/** A process and its live descendants, with their /proc/<pid>/stat fields after the name. */
function processTree(root: number): Map<number, string[]> {
  const stats = new Map<number, string[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      stats.set(Number(entry), stat.slice(stat.lastIndexOf(")") + 2).split(" "));
    } catch {
      // The process ended while we listed.
    }
  }
  const parent = (pid: number) => Number(stats.get(pid)?.[1] ?? 0);
  const inTree = (pid: number): boolean => pid === root || (pid > 1 && inTree(parent(pid)));
  return new Map([...stats].filter(([pid]) => inTree(pid)));
}

/** Resident memory of a process and all its descendants, MB (VmRSS from /proc). */
export function treeRssMb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root).keys()) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Ended meanwhile: it holds nothing any more.
    }
  }
  return kb / 1024;
}

/**
 * CPU seconds (user + system) used so far by a process tree: each live process's own time plus
 * that of the children it has waited for (finished builds, installs, initdb).
 */
export function treeCpuSeconds(root: number): number {
  let ticks = 0;
  for (const fields of processTree(root).values()) {
    ticks += [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  }
  return ticks / 100;
}

/** `node apps/local-stack/dist/main-job.js` on `dataDir`: spawn → banner, and idle RSS. */
export async function sampleMainJob(dataDir: string, idleMs: number) {
  const started = performance.now();
  const env = { PORT: String(await freePort()), EMULATOR_PORT: "0", OVERTURE_DATA_DIR: dataDir };
  const run = spawnGroup(process.execPath, [MAIN_JOB], REPO_ROOT, env);
  const readyMs = await waitFor(run, READY, started, 120_000);
  await sleep(idleMs);
  const rssMb = treeRssMb(run.process.pid ?? 0);
  const exitCode = await interrupt(run);
  return { readyMs, rssMb, exitCode };
}

/** The files a clone would have: tracked ones plus new, not ignored ones (uncommitted work too). */
function copyWorkingTree(to: string): void {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: REPO_ROOT,
      encoding: "utf8",
    },
  );
  for (const file of new Set(listed.split("\0").filter(Boolean))) {
    const from = join(REPO_ROOT, file);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(from, join(to, file));
  }
}

/** pnpm as this benchmark was started (`npm_execpath`), else the one on PATH. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath?.includes("pnpm")) {
    return /\.c?js$/.test(execPath) ? [process.execPath, [execPath]] : [execPath, []];
  }
  return ["pnpm", []];
}

export interface FreshStart {
  /** `pnpm start` → the main job's banner, and its phases (ms each). */
  totalMs: number;
  /** CPU seconds the run's processes had used at that moment. */
  cpuSeconds: number;
  installMs: number;
  buildMs: number;
  startMs: number;
  /** Resident memory of `pnpm start` as a whole (pnpm waiting, the main job) once idle, MB. */
  groupRssMb: number;
  /** Exit code of `pnpm start` after SIGINT to its process group. */
  interruptExit: number | null;
  /** Reference: the extension's plain `wxt build` for Chrome, in the same copy, ms. */
  wxtMs: number;
}

/**
 * Copies the working tree to `dir` (no node_modules, no build outputs, no turbo cache) and runs
 * `pnpm start` there: its dependency install (pnpm's `verifyDepsBeforeRun`), the builds of the
 * start path and the main job's cold start (a fresh data folder). The pnpm store of this machine
 * is warm (as for any second clone); the copy itself is not timed.
 */
export async function freshCopyToReady(dir: string, idleMs: number): Promise<FreshStart> {
  copyWorkingTree(dir);
  const [command, prefix] = pnpmCommand();
  const env = {
    PORT: String(await freePort()),
    EMULATOR_PORT: "0",
    OVERTURE_DATA_DIR: join(dir, ".data"),
  };
  const started = performance.now();
  const run = spawnGroup(command, [...prefix, "start"], dir, env);
  // turbo's header ends the install (and turbo's own start); its summary ends the builds.
  const installMs = await waitFor(run, "Running build in", started);
  const builtMs = await waitFor(run, "Tasks:", started);
  const totalMs = await waitFor(run, READY, started);
  const cpuSeconds = treeCpuSeconds(run.process.pid ?? 0);
  await sleep(idleMs);
  const groupRssMb = treeRssMb(run.process.pid ?? 0);
  const interruptExit = await interrupt(run);
  const wxtStarted = performance.now();
  execFileSync(command, [...prefix, "exec", "wxt", "build"], {
    cwd: join(dir, "apps/extension"),
    env: childEnv({}),
    stdio: "ignore",
  });
  return {
    totalMs,
    cpuSeconds,
    installMs,
    buildMs: builtMs - installMs,
    startMs: totalMs - builtMs,
    groupRssMb,
    interruptExit,
    wxtMs: performance.now() - wxtStarted,
  };
}
