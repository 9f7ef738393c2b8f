import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { PGLITE_OPTIONS, type Database } from "../../src/db/client.ts";
import { openDatabase } from "../../src/db/open.ts";
import { sha256Hex } from "../../src/lib/secrets.ts";
import { createVault } from "../../src/lib/vault.ts";
import {
  ENCRYPTION_KEY,
  keyHashOf,
  platformTaskIdOf,
  secretOf,
  sessionTokenOf,
  userIdOf,
} from "./plan.ts";

/**
 * Databases of the benchmarks: one seeded template per workload, then a fresh copy per
 * measurement (Postgres `CREATE DATABASE … TEMPLATE`, PGlite a copy of the data folder), so
 * every run starts from the same state and its rows can be counted afterwards.
 */
export const ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface Workload {
  users: number;
  tasks: number;
}

const withDatabase = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export const postgresVersion = () =>
  admin(
    async (c) =>
      (await c.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v ??
      "?",
  );

/** Inserts users with webhook secrets and sessions, and `tasks` tasks waiting for callbacks. */
async function seed(database: Database, workload: Workload): Promise<void> {
  const [keyId = "", key = ""] = ENCRYPTION_KEY.split(":");
  const vault = createVault([{ id: keyId, key }]);
  const db = database.db;
  const far = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const users = Array.from({ length: workload.users }, (_, i) => i + 1);
  for (let from = 0; from < users.length; from += 1_000) {
    const rows = users.slice(from, from + 1_000).map((id) => ({
      id,
      login: `u${id}`,
      secret: vault.seal(secretOf(id), `webhook-secret:${id}:u${id}`),
      session: sha256Hex(sessionTokenOf(id)),
    }));
    const batch = JSON.stringify(rows);
    await db.execute(sql`insert into users (id, login, name, avatar_url)
      select r.id, r.login, 'Bench ' || r.login, '' from json_to_recordset(${batch}::json) as r(id bigint, login text)`);
    await db.execute(sql`insert into webhook_secrets (user_id, namespace, secret_enc)
      select r.id, r.login, r.secret from json_to_recordset(${batch}::json) as r(id bigint, login text, secret text)`);
    await db.execute(sql`insert into sessions (token_hash, user_id, expires_at)
      select r.session, r.id, ${far}::timestamptz from json_to_recordset(${batch}::json) as r(id bigint, session text)`);
  }
  for (let from = 0; from < workload.tasks; from += 5_000) {
    const rows = Array.from({ length: Math.min(5_000, workload.tasks - from) }, (_, j) => {
      const task = from + j;
      const userId = userIdOf(task, workload.users);
      return { u: userId, ns: `u${userId}`, p: platformTaskIdOf(task), h: keyHashOf(task) };
    });
    // Submitted and waiting; the next poll is far away, so no reconciler works during a run.
    // An event keeps it far only while the task is younger than its expected duration (10 min
    // from submitted_at, tasks/schedule.ts); past that each merged event schedules a poll 5 s
    // later. Templates serve runs long after they were seeded, so submitted_at is ahead too.
    await db.execute(sql`insert into tasks (user_id, namespace, token_id, status, platform_task_id,
        webhook_key_hash, webhook_expected, params, submitted_at, next_poll_at)
      select r.u, r.ns, 1, 'waiting', r.p, r.h, true, '{"prompt":"bench"}'::jsonb, ${far}::timestamptz, ${far}::timestamptz
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(u bigint, ns text, p text, h text)`);
  }
}

export interface PgDatabaseHandle {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A migrated, seeded database to copy from (no connection stays open on it). */
export async function createPgTemplate(workload: Workload): Promise<PgDatabaseHandle> {
  const name = `overture_bench_tpl_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(name);
  const database = await openDatabase({ driver: "pg", url });
  try {
    await database.migrate();
    await seed(database, workload);
  } finally {
    await database.close();
  }
  return { name, url, drop: () => dropPg(name) };
}

/** A fresh copy of a template, or an empty (unmigrated) database without one. */
export async function createPgDatabase(template?: string): Promise<PgDatabaseHandle> {
  const name = `overture_bench_${randomBytes(5).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`));
  // Every run starts with the buffers of the runs before it written out, so the next checkpoint
  // does not fall into whichever run comes next. (Item 4's first run was its slowest twice; with
  // this it still varies, 64–84 ms p99, so that was not the only cause.) It needs a superuser or
  // pg_checkpoint; without that the runs go on as before.
  await admin((c) => c.query("CHECKPOINT")).catch(() => undefined);
  return { name, url: withDatabase(name), drop: () => dropPg(name) };
}

const dropPg = (name: string) =>
  admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);

export const benchTmp = (prefix: string) =>
  mkdtempSync(join(tmpdir(), `overture-bench-${prefix}-`));

/** A PGlite data folder, migrated and seeded with the product's options. */
export async function createPgliteTemplate(workload: Workload): Promise<string> {
  const dir = join(benchTmp("pglite-tpl"), "data");
  const database = await openDatabase({ driver: "pglite", dataDir: dir });
  try {
    await database.migrate();
    await seed(database, workload);
  } finally {
    await database.close();
  }
  return dir;
}

export function copyPglite(template: string): { dir: string; drop(): void } {
  const root = benchTmp("pglite");
  const dir = join(root, "data");
  cpSync(template, dir, { recursive: true });
  return {
    dir,
    drop() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs one read-only query against a pg URL or a (closed) PGlite folder. */
export async function queryOnce<T>(
  target: { url: string } | { dir: string },
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if ("url" in target) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const client = new PGlite(target.dir, PGLITE_OPTIONS);
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.close();
  }
}
