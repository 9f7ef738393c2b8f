import { createBackend } from "../backend.ts";
import { openDatabase, type Database } from "../db/client.ts";
import type { Config } from "../env.ts";
import { systemClock } from "../lib/clock.ts";
import { createVault } from "../lib/vault.ts";
import { createResealer } from "../services/credentials/reseal.ts";
import { createRetention } from "../services/retention/prune.ts";
import { type CliIo, EXIT, stderrLogger } from "./io.ts";

/**
 * Runs `work` on the configured database, already migrated by `migrate` or `serve`. On PGlite the
 * server must be stopped first: a data folder opened by two processes is corrupted.
 */
export async function withDatabase<T>(config: Config, work: (database: Database) => Promise<T>) {
  const database = await openDatabase(config.database);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** `overture-backend migrate`: applies pending migrations (under the advisory lock) and exits. */
export async function migrate(config: Config, io: CliIo): Promise<number> {
  await withDatabase(config, (database) => database.migrate());
  io.out(`migrations applied (${config.database.driver})`);
  return EXIT.ok;
}

/** `overture-backend reseal`: re-encrypts under the first key of TOKEN_ENCRYPTION_KEYS now. */
export async function reseal(config: Config, io: CliIo): Promise<number> {
  const logger = stderrLogger(config, io);
  const outcome = await withDatabase(config, ({ db }) =>
    createResealer({ db, vault: createVault(config.encryptionKeys), logger }).runNow(),
  );
  io.out(`re-sealed under key ${config.encryptionKeys[0]?.id ?? "?"}: ${outcome.resealed}`);
  if (outcome.failed === 0) return EXIT.ok;
  io.out(
    `${outcome.failed} value(s) open with no listed key: list again a key removed too early, or see "Key rotation" in docs/self-hosting.md`,
  );
  return EXIT.failed;
}

/**
 * `overture-backend prune`: one retention round (RETENTION_*) and one archive-retention round
 * (ARCHIVE_RETENTION_DAYS), as every instance runs them hourly.
 */
export async function prune(config: Config, io: CliIo): Promise<number> {
  const logger = stderrLogger(config, io);
  const { outcome, archived } = await withDatabase(config, async (database) => {
    const outcome = await createRetention({
      db: database.db,
      clock: systemClock,
      config,
      logger,
    }).runNow();
    // Expiring an archived result also tells the owner's clients (a task event): that takes the
    // task services, built here without starting any worker.
    const backend = await createBackend(config, { database, logger, workers: false });
    const archived = await backend.deps.services.archive.retention.runOnce();
    return { outcome, archived };
  });
  for (const [table, deleted] of Object.entries(outcome)) io.out(`${table}: ${deleted} deleted`);
  io.out(`archived results: ${archived} removed`);
  return EXIT.ok;
}
