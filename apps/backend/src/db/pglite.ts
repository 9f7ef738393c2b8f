import { existsSync, readdirSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import {
  migrationsFolder,
  PGLITE_OPTIONS,
  TEXT_TYPE_IDS,
  type PgliteDatabase,
  type RunStatements,
} from "./client.ts";
import { initDataDirInChild } from "./pglite-initdb.ts";
import { createStatementCache } from "./pglite-statements.ts";
import type { Statement } from "./script.ts";
import * as schema from "./schema/index.ts";

/**
 * Embedded Postgres in a data folder. A fresh folder is created by `initdb` in a short-lived
 * child process (pglite-initdb.ts), which keeps initdb's memory out of this one.
 */
export async function openPglite(dataDir: string): Promise<PgliteDatabase> {
  if (isEmptyOrMissing(dataDir)) await initDataDirInChild(dataDir, PGLITE_OPTIONS);
  // Postgres's WebAssembly as the baseline compiler (Liftoff) makes it, as in the main job and
  // initdb's child. Tiering its hot functions up to the optimising compiler takes seconds of CPU
  // on background threads, starting with the first requests, which wait for it meanwhile, for a
  // steady state only a little faster. Process-wide; a process on Postgres never gets here.
  setFlagsFromString("--liftoff-only");
  const client = new PGlite(dataDir, PGLITE_OPTIONS);
  await client.waitReady;
  return wrapPglite(client);
}

// PGlite's own parsers would make Dates of timestamps; drizzle reads them as text.
const SCRIPT_PARSERS = Object.fromEntries(TEXT_TYPE_IDS.map((id) => [id, (text: string) => text]));

/** Wraps an open PGlite instance (tests pass clones of a migrated template). */
export function wrapPglite(client: PGlite): PgliteDatabase {
  const db = drizzle(client, { schema, casing: "snake_case" });
  const statements = createStatementCache();

  function scriptTransaction<T>(fn: (run: RunStatements) => Promise<T>): Promise<T> {
    return client.transaction((tx) =>
      fn(async (list) => {
        if (list.length === 0) return [];
        const plan = statements.plan(list);
        if (plan.prepare !== undefined) {
          await tx.exec(plan.prepare).catch((error: unknown) => {
            statements.forget();
            throw error;
          });
          plan.prepared();
        }
        return (await tx.exec(plan.execute, { parsers: SCRIPT_PARSERS })).map((r) => r.rows);
      }),
    );
  }

  return {
    driver: "pglite",
    db: db,
    async migrate() {
      await migrate(db, { migrationsFolder: migrationsFolder() });
    },
    async ping() {
      await client.query("select 1");
    },
    scriptTransaction,
    async query<Row>(statement: Statement) {
      // In a transaction of its own: the statement cache's PREPARE and EXECUTE never interleave
      // with another's (db/pglite-statements.ts).
      const [rows = []] = await scriptTransaction((run) => run([statement]));
      return rows as Row[];
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
