import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import type { Database } from "../db/client.ts";
import { openDatabase } from "../db/open.ts";
import type { DatabaseConfig } from "../env/env.ts";
import { CommandFailed } from "./io.ts";

/**
 * The PGlite data folder as the CLI sees it, before opening it. PGlite creates any folder it is
 * given, so a maintenance command run from the wrong working directory would make an empty
 * database there and fail on a missing table; and two processes on one folder damage it, while
 * PGlite itself neither refuses nor records who has it open (its postmaster.pid holds "-42"
 * and stays behind after a crash). Hence these checks, and a lock file of our own.
 */

/** Beside Postgres's own files: the one place sure to be writable wherever the data lives. */
export const LOCK_FILE = "overture-backend.lock";

const HINT =
  "Set PGLITE_DATA_DIR to the folder's absolute path, or run the command from the working directory the server uses (a relative PGLITE_DATA_DIR, like the default .data/pglite, is read from there).";

export type FolderState = "missing" | "empty" | "database" | "other";

export function folderState(dataDir: string): FolderState {
  if (!existsSync(dataDir)) return "missing";
  if (existsSync(join(dataDir, "PG_VERSION"))) return "database";
  return readdirSync(dataDir).length === 0 ? "empty" : "other";
}

/** Refuses unless `dataDir` holds a database: commands that only read or change one never create it. */
export function requireDatabaseFolder(dataDir: string): void {
  const where = resolve(dataDir);
  const state = folderState(dataDir);
  if (state === "database") return;
  const what =
    state === "missing"
      ? "does not exist"
      : state === "empty"
        ? "is empty"
        : "holds no PGlite database (no PG_VERSION)";
  throw new CommandFailed(
    `the PGlite data folder ${where} ${what}, so there is no database to work on. ${HINT} ` +
      "`migrate` or `serve` creates a new database.",
  );
}

interface LockRecord {
  pid: number;
  host: string;
  command: string;
  since: string;
}

/** Folders this process holds: a PID equal to ours in a lock we do not hold is a stale one. */
const held = new Set<string>();

export function readLock(dataDir: string): LockRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), "utf8")) as LockRecord;
    return typeof record.pid === "number" ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's process still runs. After a crash the PID may belong to an unrelated
 * process by now, which would keep `serve` from starting: where Linux says what runs under the
 * PID, only a Node process counts.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return /node/i.test(readFileSync(`/proc/${pid}/cmdline`, "latin1"));
  } catch {
    return true; // no /proc (macOS) or not readable: trust the PID
  }
}

/**
 * What a lock left in the folder means: `live` when its process runs on this host; `foreign`
 * when it was taken on another host (another container on the same volume) and cannot be
 * checked from here; `stale` when its process is gone. A PID equal to ours that this process
 * does not hold is stale: a restarted container gives its server the same PID again.
 */
export function lockStatus(
  dataDir: string,
): { record: LockRecord; status: "live" | "foreign" | "stale" } | undefined {
  const record = readLock(dataDir);
  if (!record) return undefined;
  if (record.host !== hostname()) return { record, status: "foreign" };
  const ours = record.pid === process.pid;
  const live = ours ? held.has(resolve(dataDir)) : alive(record.pid);
  return { record, status: live ? "live" : "stale" };
}

export function describeLock(record: LockRecord): string {
  return `\`overture-backend ${record.command}\` (pid ${record.pid} on host ${record.host}, since ${record.since})`;
}

/**
 * Takes the folder's lock for `command`, or refuses while another process holds it. A stale lock
 * is replaced. A lock from another host is replaced only when `takeOverForeign` (serve: after a
 * crash a recreated container has a new host name, and refusing would keep the service down);
 * a maintenance command refuses it and says how to clear it. Returns the release function.
 */
export function lockFolder(
  dataDir: string,
  command: string,
  options: { takeOverForeign?: boolean; onTakeOver?: (message: string) => void } = {},
): () => void {
  const where = resolve(dataDir);
  const file = join(where, LOCK_FILE);
  const found = lockStatus(where);
  if (
    found &&
    (found.status === "live" || (found.status === "foreign" && !options.takeOverForeign))
  )
    throw new CommandFailed(
      `the PGlite data folder ${where} is in use by ${describeLock(found.record)}: stop it first, since two processes on one PGlite folder damage it.` +
        (found.status === "foreign"
          ? ` That process runs on another host, so this one cannot tell whether it still runs: if it does not, delete ${file}.`
          : ""),
    );
  if (found && found.status !== "live")
    options.onTakeOver?.(`replaced the lock ${file} left by ${describeLock(found.record)}`);
  const record: LockRecord = {
    pid: process.pid,
    host: hostname(),
    command,
    since: new Date().toISOString(),
  };
  try {
    // Exclusive when no lock was there: of two commands starting together, one gets it.
    writeFileSync(file, `${JSON.stringify(record)}\n`, { flag: found ? "w" : "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return lockFolder(dataDir, command, options);
  }
  held.add(where);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(where);
    // Only our own record: never remove a lock another process took over meanwhile.
    if (readLock(where)?.pid === process.pid) rmSync(file, { force: true });
  };
  process.once("exit", release);
  return () => {
    process.removeListener("exit", release);
    release();
  };
}

/**
 * Opens the configured database for `command`; on PGlite also checks and locks the folder.
 * `create`: a missing or empty folder gets a new database (migrate, serve); otherwise it is
 * refused. A new folder is locked once opened, since a lock file in an empty one would keep
 * initdb from filling it. `release` goes after `close`.
 */
export async function openForCommand(
  config: DatabaseConfig,
  command: string,
  options: {
    create?: boolean;
    takeOverForeign?: boolean;
    onTakeOver?: (message: string) => void;
  } = {},
): Promise<{ database: Database; release: () => void }> {
  if (config.driver !== "pglite")
    return { database: await openDatabase(config), release: () => undefined };
  if (!options.create) requireDatabaseFolder(config.dataDir);
  const existing = folderState(config.dataDir) === "database";
  let release = existing ? lockFolder(config.dataDir, command, options) : undefined;
  try {
    const database = await openDatabase(config);
    try {
      release ??= lockFolder(config.dataDir, command, options);
    } catch (error) {
      await database.close();
      throw error;
    }
    return { database, release };
  } catch (error) {
    release?.();
    throw error;
  }
}
