import { type ChildProcess, fork, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { get } from "node:http";
import { join, resolve } from "node:path";
import { sleep } from "./stats.ts";
export { freePort } from "../../src/server/free-port.ts";

/** Child processes of the benchmarks: the built backend, plain-node reference servers, workers. */
export const BACKEND_DIR = resolve(import.meta.dirname, "../..");
/** The built backend; `BENCH_BACKEND_DIST` points at another build (comparing two of them). */
export const DIST_INDEX = resolve(
  process.env.BENCH_BACKEND_DIST ?? join(BACKEND_DIR, "dist/index.js"),
);

export interface Child {
  readonly pid: number;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
  /** The last few KB of its output, for error messages. */
  output(): string;
  /** SIGTERM (graceful), then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

function track(child: ChildProcess): Child {
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((done) => {
    child.once("exit", (code) => {
      done(code);
    });
  });
  let alive = true;
  void exited.then(() => (alive = false));
  return {
    pid: child.pid ?? -1,
    exited,
    output: () => tail,
    async stop(graceMs = 15_000) {
      if (!alive) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The environment of a child: ours minus the variables that would pick another database. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged = { ...process.env, ...extra };
  const dropped = new Set(["DATABASE_URL", "PGLITE_DATA_DIR", "NODE_OPTIONS"]);
  return Object.fromEntries(
    Object.entries(merged).filter(
      ([name, value]) => value !== undefined && (!dropped.has(name) || name in extra),
    ),
  );
}

/** `node <args>` in the backend folder (plain node: no loader, as the product runs). */
export function spawnNode(args: string[], env: Record<string, string | undefined> = {}): Child {
  return track(
    spawn(process.execPath, args, {
      cwd: BACKEND_DIR,
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

/** Runs an ES module given as source text in a plain node process (reference servers). */
export function spawnSource(source: string, env: Record<string, string | undefined> = {}): Child {
  return spawnNode(["--input-type=module", "-e", source], env);
}

/** Polls `GET /readyz` (or `path`) until 200; resolves with ms since `since`. */
export async function waitReady(
  port: number,
  child: Child,
  since: number,
  path = "/readyz",
  timeoutMs = 90_000,
): Promise<number> {
  const state = { exited: false };
  void child.exited.then(() => (state.exited = true));
  for (;;) {
    const status = await new Promise<number>((done) => {
      const request = get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
        response.resume();
        done(response.statusCode ?? 0);
      });
      request.on("error", () => {
        done(0);
      });
    });
    if (status === 200) return performance.now() - since;
    if (state.exited) throw new Error(`process exited before it was ready:\n${child.output()}`);
    if (performance.now() - since > timeoutMs)
      throw new Error(`not ready within ${timeoutMs} ms:\n${child.output()}`);
    await sleep(5);
  }
}

export interface Memory {
  /** Resident set now, MB. */
  rssMb: number;
  /** Peak resident set since the process started, MB. */
  peakMb: number;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** Seconds of CPU (user + system) a process has used, from /proc (for CPU-share notes). */
export function cpuSecondsOf(pid: number): number {
  const { user, kernel } = cpuSplitOf(pid);
  return user + kernel;
}

/** CPU seconds a process spent in user space and in the kernel (its threads included). */
export function cpuSplitOf(pid: number): { user: number; kernel: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return { user: Number(fields[11]) / 100, kernel: Number(fields[12]) / 100 };
}

/** CPU seconds of the Postgres processes serving `database` (its connections), from /proc. */
export function postgresCpuOf(database: string): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.startsWith("postgres: ") && cmd.includes(` ${database} `))
        total += cpuSecondsOf(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** A benchmark worker: a TypeScript module run with tsx, answering calls over IPC. */
export interface Worker {
  call<T>(method: string, arg?: unknown): Promise<T>;
  readonly pid: number;
  stop(): Promise<void>;
}

export function startWorker(
  file: string,
  env: Record<string, string | undefined> = {},
  nodeArgs: readonly string[] = [],
): Worker {
  const child = fork(resolve(import.meta.dirname, "../workers", file), [], {
    cwd: BACKEND_DIR,
    env: childEnv(env),
    execArgv: ["--import", "tsx", ...nodeArgs],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const tracked = track(child);
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on("message", (message: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(new Error(`${file}: ${message.error ?? "failed"}`));
  });
  void tracked.exited.then((code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${file} exited (${code})`));
    pending.clear();
  });
  return {
    pid: tracked.pid,
    call<T>(method: string, arg?: unknown): Promise<T> {
      const id = next++;
      return new Promise<T>((resolveCall, reject) => {
        pending.set(id, { resolve: resolveCall as (v: unknown) => void, reject });
        child.send({ id, method, arg });
      });
    },
    async stop() {
      // Disconnected, a worker exits by itself (serveWorker), running its exit handlers (a
      // preload's record); SIGTERM only if it has not within a second.
      if (child.connected) child.disconnect();
      await Promise.race([tracked.exited, sleep(1_000)]);
      await tracked.stop(5_000);
    },
  };
}

/** The worker side of {@link startWorker}: `handlers[method](arg)` answers each call. */
export function serveWorker(handlers: Record<string, (arg: never) => Promise<unknown>>): void {
  process.on("message", (message: { id: number; method: string; arg: never }) => {
    const handler = handlers[message.method];
    const reply = (body: { ok: boolean; result?: unknown; error?: string }) =>
      process.send?.({ id: message.id, ...body });
    if (!handler) {
      reply({ ok: false, error: `no method ${message.method}` });
      return;
    }
    handler(message.arg).then(
      (result) => reply({ ok: true, result }),
      (error: unknown) =>
        reply({
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  process.on("disconnect", () => process.exit(0));
}
