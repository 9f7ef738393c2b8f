import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { openDatabase } from "../../src/db/open.ts";
import { wrapPglite } from "../../src/db/pglite.ts";

/**
 * Test databases for both drivers. Every backend test suite runs on each available driver:
 * - `pglite`: an in-memory database per suite, loaded from the migrated template that
 *   global-setup.ts dumps once per run (initdb costs ~3 s of CPU; loading the dump ~0.9 s).
 * - `pg`: a fresh database per suite on the machine's Postgres, dropped afterwards.
 *   `TEST_DATABASE_URL` set → it must be reachable (CI sets it; failure is loud). Unset → the
 *   default `postgres://postgres@127.0.0.1:5432/postgres` is tried, and when nothing answers the
 *   pg variants are skipped with the reason printed.
 */
export type DriverName = "pglite" | "pg";

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  database: Database;
  /** For pg: the URL of this suite's database (a second backend instance can open it). */
  url?: string;
  drop(): Promise<void>;
}

let template: Blob | undefined;

/** A fresh in-memory PGlite with the migrations applied (loaded from the run's template). */
export async function createPgliteClient(): Promise<PGlite> {
  template ??= new Blob([await readFile(inject("pgliteTemplate"))]);
  const client = new PGlite({ loadDataDir: template });
  await client.waitReady;
  return client;
}

export async function createPgliteDatabase(): Promise<TestDatabase> {
  const database = wrapPglite(await createPgliteClient());
  await database.migrate();
  return { database, drop: () => database.close() };
}

function adminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `overture_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl(), name);
  const database = await openDatabase({ driver: "pg", url });
  await database.migrate();
  return {
    database,
    url,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl() });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** Why the pg driver cannot be tested here, or undefined when it can. Throws when CI demands it. */
export async function postgresUnavailableReason(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return undefined;
  } catch (error) {
    if (process.env.TEST_DATABASE_URL) {
      throw new Error(`TEST_DATABASE_URL is set but Postgres is unreachable: ${String(error)}`);
    }
    return `no Postgres at ${DEFAULT_ADMIN_URL} (${(error as Error).message}); set TEST_DATABASE_URL to run the pg variants`;
  }
}

export const createTestDatabase = (driver: DriverName): Promise<TestDatabase> =>
  driver === "pg" ? createPostgresDatabase() : createPgliteDatabase();
