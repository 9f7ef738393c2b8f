import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PGliteOptions } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { DatabaseConfig } from "../env/env.ts";
import type * as schema from "./schema/index.ts";
import type { Statement } from "./script.ts";

/** The drizzle database both drivers provide: code above this module never knows which it is. */
export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

export type NotificationHandler = (payload: string) => void;

/** An open database: drizzle plus the few driver-level things drizzle does not cover. */
export interface Database {
  readonly driver: "pg" | "pglite";
  readonly db: AppDatabase;
  /** Applies committed SQL migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Subscribes to a NOTIFY channel; resolves to an unsubscribe function. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /**
   * Postgres only: a pooled connection that runs multi-statement scripts, each sent as one
   * message (no parameters: values are inlined by db/script.ts). PGlite has no round trips to save.
   */
  scriptSession?(): Promise<ScriptSession>;
  /**
   * PGlite only: runs `fn` in one transaction (rolled back if it throws), where `run` sends
   * statements as one script, one call into the embedded database, each statement prepared once
   * per session (db/pglite-statements.ts). Through drizzle every statement is six protocol
   * messages, each a call into the engine plus PGlite's JavaScript around it, and is parsed and
   * planned again each time.
   */
  scriptTransaction?<T>(fn: (run: RunStatements) => Promise<T>): Promise<T>;
  /**
   * Runs one statement of ours, prepared once per connection (Postgres) or session (PGlite) and
   * then only executed: for small reads and writes made for many requests, where drizzle would
   * build the SQL and Postgres parse and plan it every time. Rows as scripts read them; `Row` is
   * the caller's word for their shape.
   */
  query<Row = Record<string, unknown>>(statement: Statement): Promise<Row[]>;
  close(): Promise<void>;
}

/** Runs the statements in order; the rows of each. Values are converted as drizzle converts
 * them (timestamps and intervals stay text: {@link TEXT_TYPE_IDS}). */
export type RunStatements = (
  statements: readonly Statement[],
) => Promise<Record<string, unknown>[][]>;

/** Types drizzle's drivers read as text (and convert themselves): timestamps, dates, intervals,
 * numeric[] and their arrays. Scripts read rows the same way, so drizzle's column mapping applies. */
export const TEXT_TYPE_IDS: readonly number[] = [
  1184, 1114, 1082, 1186, 1231, 1115, 1185, 1187, 1182,
];

export interface ScriptSession {
  /** Runs the statements of `text` in one round trip; the rows of each, in order. Values are
   * converted as drizzle's node-postgres driver converts them ({@link TEXT_TYPE_IDS}). */
  run(text: string): Promise<Record<string, unknown>[][]>;
  /** Names of the statements prepared on this connection by earlier messages (PREPARE). */
  readonly prepared: Set<string>;
  /** Back to the pool; `broken` drops the connection (its transaction state is unknown). */
  release(broken?: boolean): void;
}

/**
 * Opens the configured database. Each driver's module is loaded only when used, so a process on
 * Postgres never loads PGlite (and the other way round): that saves ~0.1 s of start-up on
 * Postgres, the time PGlite's module alone takes to load here.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.driver === "pg") return (await import("./postgres.ts")).openPostgres(config.url);
  return (await import("./pglite.ts")).openPglite(config.dataDir);
}

/** Finds `drizzle/` whether running from `src/db` (tsx, tests) or a bundled `dist/`. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    const candidate = join(dir, "drizzle");
    if (existsSync(join(candidate, "meta", "_journal.json"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("SQL migrations folder `drizzle/` not found next to the backend");
}

/** How the backend opens embedded Postgres (the benchmarks open data folders the same way). */
export const PGLITE_OPTIONS = {
  // Measured here: the default configuration reopens at ~320 MB RSS, 16 MB buffers at ~180 MB.
  postgresqlconf: "shared_buffers=16MB",
} satisfies PGliteOptions;
