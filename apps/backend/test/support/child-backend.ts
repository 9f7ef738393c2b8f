import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

const BACKEND_DIR = resolve(import.meta.dirname, "../..");

/**
 * The backend as a real child process — `src/index.ts` run through tsx, so `pnpm test` needs no
 * build — that a test can SIGKILL and start again with the same environment (same port, same
 * database, same encryption key). Its log lines (JSON on stdout) are kept across restarts.
 */
export interface ChildBackend {
  readonly url: string;
  readonly pid: number | undefined;
  /** Every line the process printed, over all its lives. */
  readonly lines: string[];
  /** Kills the process with `signal` and waits for it to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts it again; resolves once `/readyz` answers 200. */
  start(): Promise<void>;
  /** SIGTERM (graceful shutdown) and wait. */
  stop(): Promise<void>;
}

/** The environment of a child process: this one's, without what would leak into the child. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const processEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete processEnv.NODE_OPTIONS;
  if (!env.DATABASE_URL) delete processEnv.DATABASE_URL;
  return processEnv;
}

/**
 * Runs `overture-backend <args>` as a process of its own — `src/cli.ts`, what the bundle's
 * `bin/overture-backend` runs once built — and resolves to its exit code and output. Killed and
 * failed after `timeoutMs`.
 */
export async function runCliProcess(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
    cwd: BACKEND_DIR,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.once("exit", (...exit) => {
      done(exit);
    }),
  );
  clearTimeout(timer);
  if (signal === "SIGKILL")
    throw new Error(`overture-backend ${args.join(" ")} ran over ${timeoutMs} ms`);
  return { code, stdout, stderr };
}

export function childBackend(env: Record<string, string>): ChildBackend {
  const url = `http://127.0.0.1:${env.PORT ?? ""}`;
  const lines: string[] = [];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  function spawnOnce(): void {
    const started = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: BACKEND_DIR,
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let partial = "";
    const collect = (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const parts = text.split("\n");
      partial = parts.pop() ?? "";
      lines.push(...parts.filter((line) => line.length > 0));
    };
    started.stdout.on("data", collect);
    started.stderr.on("data", collect);
    exited = new Promise((done) => {
      started.once("exit", () => {
        done();
      });
    });
    child = started;
  }

  async function ready(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      if (child?.exitCode !== null && child?.exitCode !== undefined)
        throw new Error(`the backend exited (${child.exitCode}):\n${lines.slice(-20).join("\n")}`);
      const ok = await fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline)
        throw new Error(`the backend was not ready in time:\n${lines.slice(-20).join("\n")}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    url,
    get pid() {
      return child?.pid;
    },
    lines,
    async kill(signal) {
      if (child?.exitCode !== null) return;
      child.kill(signal);
      await exited;
    },
    async start() {
      spawnOnce();
      await ready(60_000);
    },
    async stop() {
      if (child?.exitCode !== null) return;
      const timer = setTimeout(() => child?.kill("SIGKILL"), 15_000);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(timer);
    },
  };
}
