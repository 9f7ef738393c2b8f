import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

// The child opens the folder once (PGlite runs initdb on an empty one) and closes it cleanly.
// Its arguments: PGlite's module URL, the folder, the options as JSON.
const INITDB = `
const [, moduleUrl, dataDir, options] = process.argv;
const { PGlite } = await import(moduleUrl);
const db = new PGlite(dataDir, JSON.parse(options));
await db.waitReady;
await db.close();
`;

function pgliteModuleUrl(): string {
  try {
    return import.meta.resolve("@electric-sql/pglite");
  } catch {
    return pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  }
}

/**
 * Runs initdb for `dataDir` in a child process, with PGlite `options`, into a staging folder next
 * to it that is moved into place only when complete: a crash mid-way leaves no half-initialised
 * data folder. initdb runs a second Postgres instance, whose peak of memory would stay in this
 * process (WebAssembly memory never shrinks): in a child, it leaves with the child, and a
 * long-running server keeps only what it uses.
 */
export async function initDataDirInChild(dataDir: string, options: object): Promise<void> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const staging = `${dataDir}.initdb-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const args = [pgliteModuleUrl(), staging, JSON.stringify(options)];
    // Baseline WebAssembly only: recompiling Postgres's hot functions with the optimising
    // compiler costs a short-lived process more CPU than it saves, and memory at its peak.
    const flags = ["--liftoff-only", "--input-type=module"];
    const child = spawn(process.execPath, [...flags, "-e", INITDB, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `PGlite initdb for ${dataDir} failed (exit ${code}): ${stderr.join("").slice(-2_000)}`,
    );
  }
  // The data folder may exist (an empty mount point): move the contents in rather than the folder.
  mkdirSync(dataDir, { recursive: true });
  for (const entry of readdirSync(staging)) renameSync(join(staging, entry), join(dataDir, entry));
  rmSync(staging, { recursive: true, force: true });
}
