import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/io.ts";
import { runCli } from "../../src/cli/main.ts";
import { LOCK_FILE } from "../../src/cli/pglite-folder.ts";
import { childBackend } from "../support/child-backend.ts";
import { testEnv } from "../support/harness.ts";
import { freePort } from "../support/live.ts";

async function run(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runCli(argv, io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const MAINTENANCE = [["sessions", "list", "--user", "grace"], ["prune"], ["reseal"]];

/** A process that exists while the test runs, standing for a server holding the folder. */
function liveProcess() {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
  return { pid: child.pid ?? 0, stop: () => child.kill("SIGKILL") };
}

function writeLock(dataDir: string, record: Record<string, unknown>) {
  const lock = { host: hostname(), command: "serve", since: new Date().toISOString(), ...record };
  writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify(lock));
}

describe("maintenance commands on a PGlite folder", () => {
  const root = mkdtempSync(join(tmpdir(), "overture-cli-folder-"));
  const dataDir = join(root, "db");
  const env = testEnv({ PGLITE_DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  beforeAll(async () => {
    expect((await run(["migrate"], env)).code).toBe(0);
  }, 60_000);
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("refuse a folder that does not exist, give its absolute path and how to point elsewhere, and create nothing", async () => {
    const missing = testEnv({ PGLITE_DATA_DIR: "no-such/pglite", LOG_LEVEL: "silent" });
    for (const argv of MAINTENANCE) {
      const result = await run(argv, missing);
      expect(result.code, argv[0]).toBe(1);
      expect(result.err, argv[0]).toContain(
        `${join(process.cwd(), "no-such/pglite")} does not exist`,
      );
      expect(result.err, argv[0]).toContain("PGLITE_DATA_DIR");
      expect(result.err, argv[0]).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(process.cwd(), "no-such"))).toBe(false);
  });

  it("check-config shows the folder's absolute path and how to point at an existing one", async () => {
    const missing = testEnv({ PGLITE_DATA_DIR: "no-such/pglite" });
    const result = await run(["check-config"], missing);
    expect(result.out).toContain(
      `PGlite data folder ${join(process.cwd(), "no-such/pglite")} does not exist`,
    );
    expect(result.out).toContain("set PGLITE_DATA_DIR to its absolute path");
  });

  it("refuse a folder a running process holds, saying which and why", async () => {
    const server = liveProcess();
    try {
      writeLock(dataDir, { pid: server.pid });
      for (const argv of MAINTENANCE) {
        const result = await run(argv, env);
        expect(result.code, argv[0]).toBe(1);
        expect(result.err, argv[0]).toContain(
          `${dataDir} is in use by \`overture-backend serve\` (pid ${server.pid}`,
        );
      }
    } finally {
      server.stop();
      rmSync(join(dataDir, LOCK_FILE), { force: true });
    }
  });

  it("refuse a lock taken on another host, which they cannot check, and say how to clear it", async () => {
    writeLock(dataDir, { pid: 1, host: "another-container" });
    try {
      const result = await run(["prune"], env);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`if it does not, delete ${join(dataDir, LOCK_FILE)}`);
    } finally {
      rmSync(join(dataDir, LOCK_FILE), { force: true });
    }
  });

  it("replace a lock whose process is gone, and remove their own lock when done", async () => {
    const gone = liveProcess();
    gone.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeLock(dataDir, { pid: gone.pid });
    const result = await run(["prune"], env);
    expect(result.code).toBe(0);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it.runIf(existsSync("/proc/self/cmdline"))(
    "replace a lock whose PID now belongs to a process that is not Node's (the PID was reused)",
    async () => {
      const other = spawn("sleep", ["60"]);
      try {
        writeLock(dataDir, { pid: other.pid });
        expect((await run(["prune"], env)).code).toBe(0);
      } finally {
        other.kill("SIGKILL");
      }
    },
  );
});

describe("serve on a PGlite folder [child process]", () => {
  const root = mkdtempSync(join(tmpdir(), "overture-serve-folder-"));
  const dataDir = join(root, "db");
  let backend: ReturnType<typeof childBackend>;
  beforeAll(async () => {
    const port = await freePort();
    backend = childBackend(
      testEnv({ PORT: String(port), PGLITE_DATA_DIR: dataDir, LOG_LEVEL: "info" }),
    );
    await backend.start();
  }, 120_000);
  afterAll(async () => {
    await backend.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("holds the folder's lock, under its own PID, while it runs", () => {
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), "utf8")) as { pid: number };
    expect(lock.pid).toBe(backend.pid);
  });

  it("logs a last `stopped` line once SIGTERM's shutdown completes, and leaves no lock", async () => {
    await backend.stop();
    // The child's last output may arrive just after its exit event.
    const messages = () => backend.lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    await expect.poll(() => messages().at(-1), { timeout: 2_000 }).toBe("stopped");
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 30_000);
});
