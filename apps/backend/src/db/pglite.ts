import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { migrationsFolder, PGLITE_OPTIONS, type Database } from "./client.ts";
import * as schema from "./schema/index.ts";

/**
 * Embedded Postgres in a data folder. A fresh folder is created by `initdb` in a short-lived
 * child process: initdb runs a second Postgres instance and peaks at ~730 MB, memory a
 * long-running server would otherwise keep (WebAssembly memory never shrinks) — measured here,
 * ~180 MB resident after a cold start instead of ~700 MB (`pnpm bench`, item 7).
 */
export async function openPglite(dataDir: string): Promise<Database> {
  if (isEmptyOrMissing(dataDir)) await initDataDir(dataDir);
  const client = new PGlite(dataDir, PGLITE_OPTIONS);
  await client.waitReady;
  return wrapPglite(client);
}

/** Wraps an open PGlite instance (tests pass clones of a migrated template). */
export function wrapPglite(client: PGlite): Database {
  const db = drizzle(client, { schema, casing: "snake_case" });
  return {
    driver: "pglite",
    db: db,
    async migrate() {
      await migrate(db, { migrationsFolder: migrationsFolder() });
    },
    async ping() {
      await client.query("select 1");
    },
    async listen(channel, handler) {
      const unsubscribe = await client.listen(channel, handler);
      return unsubscribe;
    },
    async close() {
      await client.close();
    },
  };
}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

// The child opens the folder once (PGlite runs initdb on an empty one) and closes it cleanly.
const INITDB = `
const { PGlite } = await import(process.env.OVERTURE_PGLITE_MODULE);
const db = new PGlite(process.env.OVERTURE_PGLITE_DIR, JSON.parse(process.env.OVERTURE_PGLITE_OPTIONS));
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
 * Runs initdb for `dataDir` in a child process, into a staging folder next to it that is moved
 * into place only when complete: a crash mid-way leaves no half-initialised data folder.
 */
async function initDataDir(dataDir: string): Promise<void> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const staging = `${dataDir}.initdb-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const stderr: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", INITDB], {
      env: {
        ...process.env,
        OVERTURE_PGLITE_MODULE: pgliteModuleUrl(),
        OVERTURE_PGLITE_DIR: staging,
        OVERTURE_PGLITE_OPTIONS: JSON.stringify(PGLITE_OPTIONS),
      },
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
