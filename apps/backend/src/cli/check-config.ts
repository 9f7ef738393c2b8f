import { resolve } from "node:path";
import type { Database } from "../db/client.ts";
import { openDatabase } from "../db/open.ts";
import { checkEnvironment, publicUrlWarning } from "../env/check.ts";
import type { DatabaseConfig } from "../env/env.ts";
import { errorMessage } from "../lib/error-summary.ts";
import { type CliIo, EXIT } from "./io.ts";
import { pendingMigrations } from "./migrations.ts";
import { describeLock, folderState, lockStatus } from "./pglite-folder.ts";
import { type Probe, probeReachable, probeTokenEndpoint } from "./platform-probe.ts";

const PROBE_TIMEOUT_MS = 5_000;

/**
 * `overture-backend check-config`: every problem of the environment, then whether the database
 * and the platform answer. Probes what it can even when other variables are wrong.
 */
export async function checkConfig(io: CliIo, fetchImpl: typeof fetch = fetch): Promise<number> {
  const check = checkEnvironment(io.env);
  const misconfigured = check.problems.length > 0;
  if (misconfigured) {
    io.out(`configuration: ${check.problems.length} problem(s)`);
    for (const problem of check.problems) io.out(`  ✗ ${problem}`);
  } else io.out("configuration: ✓ every variable parses");
  let failed = false;

  if (check.database) {
    const result = await probeDatabase(check.database);
    io.out(`database: ${mark(result)} ${result.message}`);
    failed ||= !result.ok;
  } else io.out("database: not probed (fix DATABASE_URL / PGLITE_DATA_DIR first)");

  const client = check.platformClient;
  if (client) {
    const result = await probeTokenEndpoint(client, fetchImpl, PROBE_TIMEOUT_MS);
    io.out(`platform ${client.baseUrl}: ${mark(result)} ${result.message}`);
    failed ||= !result.ok;
  }
  const others = check.platformUrls.filter((url) => url !== client?.baseUrl);
  if (!client && others.length === 0)
    io.out("platform: not probed (fix PLATFORM_BASE_URL / PLATFORM_API_URL first)");
  else if (!client)
    io.out("platform token endpoint: not probed (fix the PLATFORM_* variables above first)");
  for (const url of others) {
    const result = await probeReachable(url, fetchImpl, PROBE_TIMEOUT_MS);
    io.out(`platform ${url}: ${mark(result)} ${result.message}`);
    failed ||= !result.ok;
  }
  const publicUrl = check.config ? publicUrlWarning(check.config) : undefined;
  if (publicUrl) io.out(`warning: ${publicUrl}`);
  if (check.config?.production && check.config.metricsToken === undefined)
    io.out("warning: METRICS_TOKEN is unset, so /metrics is public");
  if (check.config?.production && !check.config.publicUrl.startsWith("https://"))
    io.out("warning: PUBLIC_URL is not https; the platform and browsers expect TLS in production");
  // The documented rule: 2 when the configuration is wrong (whatever the probes say), 1 when it
  // parses and a check of the database or the platform fails.
  return misconfigured ? EXIT.usage : failed ? EXIT.failed : EXIT.ok;
}

function mark(probe: Probe): string {
  return !probe.ok ? "✗" : probe.uncertain ? "?" : "✓";
}

async function probeDatabase(config: DatabaseConfig): Promise<Probe> {
  if (config.driver === "pglite") {
    // Never opened here: a running server may hold the folder, and a second opener corrupts it.
    return probePgliteFolder(config.dataDir);
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

/**
 * The folder is only looked at, with its absolute path: a relative PGLITE_DATA_DIR depends on the
 * working directory, and check-config is often run from another one than the server's. A
 * missing folder passes, since check-config comes before the first `migrate` (self-hosting.md),
 * but says how to point at an existing one.
 */
function probePgliteFolder(dataDir: string): Probe {
  const where = resolve(dataDir);
  const state = folderState(dataDir);
  if (state === "other")
    return {
      ok: false,
      message: `PGlite data folder ${where} holds files but no database (no PG_VERSION): check PGLITE_DATA_DIR`,
    };
  if (state !== "database")
    return {
      ok: true,
      message: `PGlite data folder ${where} ${state === "missing" ? "does not exist" : "is empty"} yet: \`migrate\` or \`serve\` creates the database. If one exists elsewhere, set PGLITE_DATA_DIR to its absolute path or run from the server's working directory`,
    };
  const lock = lockStatus(where);
  const inUse =
    lock?.status === "live" || lock?.status === "foreign"
      ? `; in use by ${describeLock(lock.record)}`
      : "";
  return { ok: true, message: `PGlite data folder ${where} holds a database (not opened${inUse})` };
}
