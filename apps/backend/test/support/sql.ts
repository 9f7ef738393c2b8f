import type { SQL } from "drizzle-orm";
import type { AppDatabase } from "../../src/db/client.ts";

/**
 * Rows of a raw query. `execute` is typed `unknown` on the driver-neutral database type; both
 * drivers answer `{ rows }`.
 */
export async function selectRows<T>(db: AppDatabase, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
