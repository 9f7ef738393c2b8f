import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { statementName, type Statement } from "../../src/db/script.ts";
import type { AppDatabase } from "../../src/db/client.ts";

/**
 * Rows of a raw query. `execute` is typed `unknown` on the driver-neutral database type; both
 * drivers answer `{ rows }`.
 */
export async function selectRows<T>(db: AppDatabase, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** Every row of every table, as JSON text: what a scan for leaked secrets reads. */
export async function dumpDatabase(db: AppDatabase): Promise<string> {
  const tables = await selectRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const rows: string[] = [];
  for (const { name } of tables) {
    const found = await selectRows<{ row: string }>(
      db,
      sql`select to_jsonb(x)::text as row from ${sql.identifier(name)} x`,
    );
    rows.push(...found.map((r) => r.row));
  }
  return rows.join("\n");
}

const dialect = new PgDialect({ casing: "snake_case" });

/** A drizzle statement as the statement form scripts take (db/script.ts), for tests of them. */
export function statementOf(query: SQL): Statement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name: statementName("overture_test", text), text, params };
}
