import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PGliteOptions } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema/index.ts";
import type { Statement } from "./script.ts";

/** The drizzle database both drivers provide: code above this module never knows which it is. */
export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

export type NotificationHandler = (payload: string) => void;

/** An open database: drizzle plus the few driver-level things drizzle does not cover. */
interface OpenDatabase {
  readonly db: AppDatabase;
  /** Applies committed SQL migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Subscribes to a NOTIFY channel; resolves to an unsubscribe function. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /**
   * Runs one statement of ours, prepared once per connection (Postgres) or session (PGlite) and
   * then only executed: for small reads and writes made for many requests, where drizzle would
   * build the SQL and Postgres parse and plan it every time. Rows as scripts read them; `Row` is
   * the caller's word for their shape.
   */
  query<Row = Record<string, unknown>>(statement: Statement): Promise<Row[]>;
  close(): Promise<void>;
}

/** node-postgres: a pool, and scripts sent as one message each. */
export interface PostgresDatabase extends OpenDatabase {
  readonly driver: "pg";
  /**
   * A pooled connection that runs multi-statement scripts, each sent as one message (no
   * parameters: values are inlined by db/script.ts).
   */
  scriptSession(): Promise<ScriptSession>;
}

/** Embedded PGlite: no round trips to save, but calls into the engine. */
export interface PgliteDatabase extends OpenDatabase {
  readonly driver: "pglite";
  /**
   * Runs `fn` in one transaction (rolled back if it throws), where `run` sends statements as one
   * script, one call into the embedded database, each statement prepared once per session
   * (db/pglite-statements.ts). Through drizzle every statement is six protocol messages, each a
   * call into the engine plus PGlite's JavaScript around it, and is parsed and planned again
   * each time.
   */
  scriptTransaction<T>(fn: (run: RunStatements) => Promise<T>): Promise<T>;
}

/** An open database of either driver; `driver` says which, and so which scripts it runs. */
export type Database = PostgresDatabase | PgliteDatabase;

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
  // Small shared buffers: one embedded client needs few, and the default holds far more memory.
  postgresqlconf: "shared_buffers=16MB",
} satisfies PGliteOptions;
