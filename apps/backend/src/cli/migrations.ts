import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder, type Database } from "../db/client.ts";
import { queryRows } from "../db/rows.ts";

/**
 * Migrations this version ships that the database lacks. drizzle records each applied one with
 * its journal timestamp and applies those newer than the last recorded, so count those.
 */
export async function pendingMigrations({ db }: Database): Promise<number> {
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
  ) as { entries: { when: number }[] };
  // Two statements: a missing table fails a statement that names it, whatever branch runs.
  const [table] = await queryRows<{ found: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  const [row] = table?.found
    ? await queryRows<{ last: string | null }>(
        db,
        sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`,
      )
    : [];
  const last = Number(row?.last ?? 0);
  return journal.entries.filter((entry) => entry.when > last).length;
}
