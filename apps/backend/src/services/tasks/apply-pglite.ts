import type { RunStatements } from "../../db/client.ts";
import { applyWithSteps, type ApplyContext, type ApplyResult } from "./apply.ts";
import type { PlatformReport } from "./merge.ts";
import { lockTasksStatement, taskRowOf } from "./store.ts";

/**
 * A batch on PGlite as two scripts in one transaction: `lock; insert events`, the merge in
 * memory, then `update; append`. PGlite runs in this process and blocks its event loop for as
 * long as a batch takes. A script is one call into the engine where drizzle makes six per
 * statement, and its statements are prepared once per session instead of parsed and planned on
 * every batch (db/pglite-statements.ts). A failure rolls the transaction back (db/pglite.ts).
 */
export function applyInPgliteScript(
  scriptTransaction: <T>(fn: (run: RunStatements) => Promise<T>) => Promise<T>,
  reports: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  return scriptTransaction((run) =>
    applyWithSteps(
      {
        async lockAndStore(ids, store) {
          const [locked = [], stored = []] = await run(
            store ? [lockTasksStatement(ids), store] : [lockTasksStatement(ids)],
          );
          return {
            rows: locked.map(taskRowOf),
            stored: stored.map((row) => String(row.event_id)),
          };
        },
        async write(statements) {
          const results = await run(statements);
          return results.at(-1)?.at(-1); // the last statement's last row
        },
      },
      reports,
      ctx,
    ),
  );
}
