import type { DatabaseConfig } from "../env/env.ts";
import type { Database } from "./client.ts";

/**
 * Opens the configured database. Each driver's module is loaded only when used, so a process on
 * Postgres never loads PGlite (and the other way round): PGlite's module alone takes a
 * noticeable share of a start-up on Postgres to load.
 */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.driver === "pg") return (await import("./postgres.ts")).openPostgres(config.url);
  return (await import("./pglite.ts")).openPglite(config.dataDir);
}
