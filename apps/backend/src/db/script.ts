import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

const dialect = new PgDialect({ casing: "snake_case" });

/** A drizzle statement as text with `$n` placeholders, and its parameters. */
export const queryOf = (statement: SQL) => dialect.sqlToQuery(statement);

/** One parameter as an SQL literal: strings always quoted ({@link quote}), never spliced raw. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return quote(value.toISOString());
  if (typeof value === "string") return quote(value);
  return quote(JSON.stringify(value));
}

/**
 * A string as an SQL literal, exactly as node-postgres' `escapeLiteral` writes it (quotes
 * doubled; with a backslash, an E'' literal with backslashes doubled), by native string search
 * and replace instead of its character-by-character loop: ~10× faster on the intake's JSON
 * batches (a 6 KB batch: ~340 µs → ~20 µs here), which are most of a script's text.
 */
export function quote(text: string): string {
  if (!text.includes("\\")) return `'${text.replaceAll("'", "''")}'`;
  return ` E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * A drizzle statement as SQL text with its parameters inlined as literals, for a multi-statement
 * script (the simple query protocol takes no parameters). Only the `$n` placeholders drizzle
 * itself wrote are replaced; a value's text is never scanned again.
 */
export function inlineSql(statement: SQL): string {
  const query = queryOf(statement);
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= query.params.length) throw new Error(`no parameter $${n}`);
    return literal(query.params[index]);
  });
}
