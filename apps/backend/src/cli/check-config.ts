import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder, openDatabase, type Database } from "../db/client.ts";
import { queryRows } from "../db/rows.ts";
import { checkEnvironment, type DatabaseConfig } from "../env.ts";
import { errorMessage } from "../lib/error-summary.ts";
import { type CliIo, EXIT } from "./io.ts";

const PROBE_TIMEOUT_MS = 5_000;

/**
 * `overture-backend check-config`: every problem of the environment, then whether the database
 * and the platform answer. Probes what it can even when other variables are wrong.
 */
export async function checkConfig(io: CliIo, fetchImpl: typeof fetch = fetch): Promise<number> {
  const check = checkEnvironment(io.env);
  let failed = check.problems.length > 0;
  if (failed) {
    io.out(`configuration: ${check.problems.length} problem(s)`);
    for (const problem of check.problems) io.out(`  ✗ ${problem}`);
  } else io.out("configuration: ✓ every variable parses");

  if (check.database) {
    const result = await probeDatabase(check.database);
    io.out(`database: ${result.ok ? "✓" : "✗"} ${result.message}`);
    failed ||= !result.ok;
  } else io.out("database: not probed (fix DATABASE_URL / PGLITE_DATA_DIR first)");

  if (check.platformUrls.length === 0)
    io.out("platform: not probed (fix PLATFORM_BASE_URL / PLATFORM_API_URL first)");
  for (const url of check.platformUrls) {
    const result = await probeUrl(url, fetchImpl);
    io.out(`platform ${url}: ${result.ok ? "✓" : "✗"} ${result.message}`);
    failed ||= !result.ok;
  }
  if (check.config?.production && check.config.metricsToken === undefined)
    io.out("warning: METRICS_TOKEN is unset, so /metrics is public");
  if (check.config?.production && !check.config.publicUrl.startsWith("https://"))
    io.out("warning: PUBLIC_URL is not https; the platform and browsers expect TLS in production");
  return failed ? EXIT.failed : EXIT.ok;
}

interface Probe {
  ok: boolean;
  message: string;
}

async function probeDatabase(config: DatabaseConfig): Promise<Probe> {
  if (config.driver === "pglite") {
    // Never opened here: a running server may hold the folder, and a second opener corrupts it.
    return existsSync(config.dataDir)
      ? { ok: true, message: `PGlite data folder ${config.dataDir} exists (not opened)` }
      : { ok: true, message: `PGlite data folder ${config.dataDir} will be created by serve` };
  }
  let database: Database | undefined;
  try {
    database = await withTimeout(openDatabase(config), "connecting");
    await withTimeout(database.ping(), "connecting");
    const pending = await withTimeout(pendingMigrations(database), "reading the migrations");
    const migrations =
      pending === 0
        ? "every migration applied"
        : `${pending} migration(s) of this version pending: \`migrate\` (or \`serve\`) applies them`;
    return { ok: true, message: `Postgres answers; ${migrations}` };
  } catch (error) {
    return { ok: false, message: `Postgres does not answer: ${errorMessage(error)}` };
  } finally {
    await database?.close().catch(() => undefined);
  }
}

/**
 * Migrations this version ships that the database lacks. drizzle records each applied one with
 * its journal timestamp and applies those newer than the last recorded, so count those.
 */
async function pendingMigrations({ db }: Database): Promise<number> {
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

/** Any HTTP answer means reachable: the base URL itself need not serve a page. */
async function probeUrl(url: string, fetchImpl: typeof fetch): Promise<Probe> {
  try {
    const response = await fetchImpl(url, {
      redirect: "manual",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { ok: true, message: `answers (HTTP ${response.status})` };
  } catch (error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is its cause.
    const cause = error instanceof Error && error.cause ? ` (${errorMessage(error.cause)})` : "";
    return { ok: false, message: `does not answer: ${errorMessage(error)}${cause}` };
  }
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer ${what} within ${PROBE_TIMEOUT_MS / 1000} s`));
    }, PROBE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}
