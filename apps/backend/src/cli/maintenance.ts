import { setTimeout as sleep } from "node:timers/promises";
import { createBackend } from "../backend.ts";
import type { Database } from "../db/client.ts";
import type { Config } from "../env/env.ts";
import { systemClock } from "../lib/clock.ts";
import { createVault } from "../lib/vault.ts";
import { createResealer } from "../services/credentials/reseal.ts";
import { createRetention } from "../services/retention/prune.ts";
import { type CliIo, EXIT, stderrLogger } from "./io.ts";
import { pendingMigrations } from "./migrations.ts";
import { openForCommand } from "./pglite-folder.ts";

/**
 * Runs `work` on the configured database, already migrated by `migrate` or `serve`. On PGlite the
 * folder must hold a database (only `migrate` may create one) and no server may have it open: a
 * data folder opened by two processes is corrupted (pglite-folder.ts).
 */
export async function withDatabase<T>(
  config: Config,
  work: (database: Database) => Promise<T>,
  options: { command: string; create?: boolean },
) {
  const { database, release } = await openForCommand(config.database, options.command, options);
  try {
    return await work(database);
  } finally {
    await database.close();
    release();
  }
}

/**
 * `overture-backend migrate`: applies pending migrations (under the advisory lock) and exits,
 * saying how many it applied: the count is what tells a release step that it did something.
 */
export async function migrate(config: Config, io: CliIo): Promise<number> {
  const applied = await withDatabase(
    config,
    async (database) => {
      // Counted on both sides: an instance migrating at the same time may apply some of them.
      const before = await pendingMigrations(database);
      await database.migrate();
      return before - (await pendingMigrations(database));
    },
    { command: "migrate", create: true },
  );
  io.out(
    applied === 0
      ? `migrations: none pending, the database is up to date (${config.database.driver})`
      : `migrations: applied ${applied} (${config.database.driver})`,
  );
  return EXIT.ok;
}

/** How often, and how long apart, `reseal` goes round again while another process holds values. */
export const RESEAL_ROUNDS = { max: 10, apartMs: 1_000 };

/**
 * `overture-backend reseal`: re-encrypts under the first key of TOKEN_ENCRYPTION_KEYS now, and
 * exits 0 only once no value is sealed with another key. A running instance re-seals at start-up
 * and hourly, and the rows it holds are skipped (SKIP LOCKED): while values it holds are left, it
 * goes round again, and counts what it finds then.
 */
export async function reseal(config: Config, io: CliIo): Promise<number> {
  const logger = stderrLogger(config, io);
  const { resealed, failed, stale } = await withDatabase(
    config,
    async ({ db }) => {
      const resealer = createResealer({ db, vault: createVault(config.encryptionKeys), logger });
      let outcome = await resealer.runNow();
      let resealed = outcome.resealed;
      let stale = await resealer.stale();
      for (let round = 1; round < RESEAL_ROUNDS.max && stale > outcome.failed; round++) {
        await sleep(RESEAL_ROUNDS.apartMs);
        outcome = await resealer.runNow();
        resealed += outcome.resealed;
        stale = await resealer.stale();
      }
      return { resealed, failed: outcome.failed, stale };
    },
    { command: "reseal" },
  );
  io.out(`re-sealed under key ${config.encryptionKeys[0]?.id ?? "?"}: ${resealed}`);
  if (stale === 0) return EXIT.ok;
  if (failed > 0)
    io.out(
      `${failed} value(s) open with no listed key: list again a key removed too early, or see "Key rotation" in docs/self-hosting.md`,
    );
  if (stale > failed)
    io.out(
      `${stale - failed} value(s) still sealed with another key, held by another process or written meanwhile by an instance on the old key list: run reseal again`,
    );
  return EXIT.failed;
}

/**
 * `overture-backend prune`: one retention round (RETENTION_*) and one archive-retention round
 * (ARCHIVE_RETENTION_DAYS), as every instance runs them hourly.
 */
export async function prune(config: Config, io: CliIo): Promise<number> {
  const logger = stderrLogger(config, io);
  const { outcome, archived } = await withDatabase(
    config,
    async (database) => {
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
    },
    { command: "prune" },
  );
  for (const [table, deleted] of Object.entries(outcome)) io.out(`${table}: ${deleted} deleted`);
  io.out(`archived results: ${archived} removed`);
  return EXIT.ok;
}
