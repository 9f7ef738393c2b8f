import type { SQL } from "drizzle-orm";
import type { AppDatabase, Transaction } from "./client.ts";

/** Where a statement runs: the database, or a transaction of it. */
export type Executor = AppDatabase | Transaction;

/** Rows of a raw statement. Both drivers answer `{ rows }`; drizzle types `execute` loosely. */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
