import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
// @ts-expect-error -- a plain-JavaScript script (it runs before anything is built)
import { bundleBackend } from "../../scripts/bundle.mjs";
import { enginesMajors, nodeRuntime, type NodeRuntime } from "@overture/packaging/pack";
import { describePg } from "../support/drivers.ts";
import { freePort, liveClient, liveEnv, startLiveEmulator, waitFor } from "../support/live.ts";

const bundle = bundleBackend as (target: string) => string;
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** The Node majors the bundle is run on below (the Dockerfile's image is the newest). */
const TESTED_MAJORS = [20, 22, 24, 26];

/** The Node the bin's shebang finds: this process's unless a test names another. */
let node: NodeRuntime = { major: 0, version: process.version, path: process.execPath };

/** What `overture-backend` gets: the configuration and a PATH to `node`; nothing of this repo. */
function bareEnv(env: Record<string, string>): Record<string, string> {
  return { ...env, PATH: `${dirname(node.path)}:/usr/bin:/bin`, HOME: tmpdir() };
}

/** The Node majors the bundle's `engines` names: each is run, none skipped in silence. */
function bundleMajors(folder: string): number[] {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  return enginesMajors(manifest.engines.node);
}

/** A throwaway Postgres database on the test server; returns its URL and how to drop it. */
async function throwawayDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `overture_bundle_${randomBytes(6).toString("hex")}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

interface Run {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** Runs the folder's executable itself (its shebang finds `node`), from a folder outside the repo. */
function runBin(folder: string, args: string[], env: Record<string, string>): Run {
  const child = spawn(join(folder, "bin/overture-backend"), args, {
    cwd: dirname(folder),
    env: bareEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once("exit", done));
  return { child, output, exited };
}

async function runToEnd(folder: string, args: string[], env: Record<string, string>) {
  const run = runBin(folder, args, env);
  const code = await run.exited;
  return { code, output: run.output.join("") };
}

/**
 * The self-contained backend: `pnpm bundle:backend <folder>` copied outside the repository runs
 * with Node alone — migrate, then serve against a throwaway Postgres database, sign in through
 * the emulator, run a task to success and archive its result with its waveform — on every Node major its `engines` names (the others
 * fetched from the npm registry as the `node` package).
 */
describePg("the bundled backend, outside the repository", () => {
  const work = mkdtempSync(join(tmpdir(), "overture-bundle-"));
  const folder = join(work, "overture-backend");
  let emu: RunningEmulator;
  let port: number;
  let server: Run | undefined;
  const databases: { drop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    bundle(folder);
    port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`, {
      timing: { waitingMs: 300, runningMs: 700, failureRate: 0 },
    });
  }, 120_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    await emu.close();
    for (const database of databases) await database.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it("is a folder with the command, the bundle, the migrations and PGlite only", () => {
    const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
      bin: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ "overture-backend": "bin/overture-backend" });
    expect(Object.keys(manifest.dependencies)).toEqual(["@electric-sql/pglite"]);
    expect(existsSync(join(folder, "drizzle/meta/_journal.json"))).toBe(true);
    expect(existsSync(join(folder, "node_modules/@electric-sql/pglite/package.json"))).toBe(true);
    expect(existsSync(join(folder, "node_modules/@overture"))).toBe(false);
  });

  it("names in `engines` exactly the Node majors it is tested on", () => {
    expect(bundleMajors(folder)).toEqual(TESTED_MAJORS);
  });

  it.each(TESTED_MAJORS)(
    "on Node %i: migrates, serves, signs in through the emulator, runs a task to success and archives it",
    async (major) => {
      node = await nodeRuntime(major);
      const database = await throwawayDatabase();
      databases.push(database);
      const env = liveEnv(port, emu.url, { url: database.url }, { LOG_LEVEL: "info" });

      const migrated = await runToEnd(folder, ["migrate"], env);
      expect(migrated.output).toMatch(/migrations: applied \d+ \(pg\)/);
      expect(migrated.code).toBe(0);

      const checked = await runToEnd(folder, ["check-config"], env);
      expect(checked.output).toContain("database: ✓ Postgres answers; every migration applied");
      expect(checked.output).toContain(`platform ${emu.url}: ✓ client credentials accepted`);
      expect(checked.code).toBe(0);

      server = runBin(folder, ["serve"], env);
      const url = `http://127.0.0.1:${port}`;
      const exitedEarly = () => server?.child.exitCode !== null;
      await waitFor(
        "/readyz to answer 200",
        async () => {
          if (exitedEarly()) throw new Error(`serve exited:\n${server?.output.join("")}`);
          return (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
        },
        30_000,
        100,
      );

      const client = liveClient(url);
      const session = await client.signIn();
      await client.prepareTasks(session, emu);
      const task = await client.createTask(session, "a bundled tune");
      await waitFor(
        "the task to succeed",
        async () =>
          (await client.listTasks(session)).find((t) => t.id === task.id)?.status === "success",
        30_000,
      );

      // Archived with its waveform: the analysis thread starts from its own bundled file.
      await waitFor(
        "the result to be archived",
        async () =>
          (await client.listTasks(session)).find((t) => t.id === task.id)?.archive?.status ===
          "archived",
        60_000,
      );
      const peaks = await client.request(`/api/tasks/${task.id}/peaks`, { session });
      expect(peaks.status).toBe(200);

      // The maintenance commands run beside a serving instance on Postgres.
      const sessions = await runToEnd(folder, ["sessions", "list", "--user", "demo"], env);
      expect(sessions.output).toMatch(/^1 live session\(s\) of demo /m);
      expect((await runToEnd(folder, ["prune"], env)).code).toBe(0);

      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      const log = server.output.join("");
      expect(log).toMatch(/"level":30,[^\n]*"route":"\/api\/tasks","status":201/);
      expect(log).toContain('"msg":"listening"');
    },
    // The first run of a major fetches its binary from the npm registry.
    660_000,
  );
});

/** PGlite is the bundle's one external module: it must find its WebAssembly and data files. */
it("migrates an embedded PGlite database from the bundled folder", async () => {
  const work = mkdtempSync(join(tmpdir(), "overture-bundle-pglite-"));
  try {
    const folder = join(work, "overture-backend");
    bundle(folder);
    const env = liveEnv(0, "http://127.0.0.1:9", { dataDir: join(work, "data") });
    const migrated = await runToEnd(folder, ["migrate"], env);
    expect(migrated.output).toMatch(/migrations: applied \d+ \(pglite\)/);
    expect(migrated.code).toBe(0);
    const check = await runToEnd(folder, ["check-config"], env);
    expect(check.output).toContain(`PGlite data folder ${join(work, "data")} holds a database`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}, 120_000);
