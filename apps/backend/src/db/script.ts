import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";

const dialect = new PgDialect({ casing: "snake_case" });

/** One parameter as an SQL literal: strings through pg's escaping, never spliced raw. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === "string") return pg.escapeLiteral(value);
  return pg.escapeLiteral(JSON.stringify(value));
}

/**
 * A drizzle statement as SQL text with its parameters inlined as literals, for a multi-statement
 * script (the simple query protocol takes no parameters). Only the `$n` placeholders drizzle
 * itself wrote are replaced; a value's text is never scanned again.
 */
export function inlineSql(statement: SQL): string {
  const query = dialect.sqlToQuery(statement);
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= query.params.length) throw new Error(`no parameter $${n}`);
    return literal(query.params[index]);
  });
}
