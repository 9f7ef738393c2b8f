import type { Database } from "../../db/client.ts";
import type { ApplyContext, ApplyResult } from "./apply.ts";
import { applyInPgliteScript } from "./apply-pglite.ts";
import { applyInScript } from "./apply-postgres.ts";
import type { PlatformReport } from "./merge.ts";

/** Applies a batch of reports in a transaction of its own and commits it. */
export type ApplyBatch = (reports: readonly PlatformReport[]) => Promise<ApplyResult>;

/**
 * How a batch of reports (the intake's group commit) reaches the database, chosen once by its
 * driver: on Postgres two multi-statement messages (apply-postgres.ts), on PGlite two scripts, each
 * one call into the engine (apply-pglite.ts). Both take the steps of `applyWithSteps` (apply.ts),
 * so the merge is the same as drizzle's transaction runs for polls, submits and cancels.
 * `context` is read for each batch (it carries the clock).
 */
export function batchApplier(database: Database, context: () => ApplyContext): ApplyBatch {
  switch (database.driver) {
    case "pg":
      return (reports) => applyInScript(() => database.scriptSession(), reports, context());
    case "pglite":
      return (reports) =>
        applyInPgliteScript((fn) => database.scriptTransaction(fn), reports, context());
  }
}
