import type { RunScript } from "../../db/client.ts";
import { inlineSql } from "../../db/script.ts";
import { applyWithSteps, type ApplyContext, type ApplyResult } from "../tasks/apply.ts";
import type { PlatformReport } from "../tasks/merge.ts";
import { lockTasksSql, taskRowOf } from "../tasks/store.ts";

/**
 * A batch on PGlite as two scripts in one transaction: `lock; insert events`, the merge in
 * memory, then `update; append`. PGlite runs in this process and blocks its event loop for as
 * long as a batch takes; a script is one call into the engine where drizzle makes six per
 * statement, which cuts a one-event batch from ~4 to ~2.5 ms here. A failure rolls the
 * transaction back (db/pglite.ts).
 */
export function applyInPgliteScript(
  scriptTransaction: <T>(fn: (run: RunScript) => Promise<T>) => Promise<T>,
  reports: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  return scriptTransaction((run) =>
    applyWithSteps(
      {
        async lockAndStore(ids, store) {
          const script = [inlineSql(lockTasksSql(ids))];
          if (store) script.push(inlineSql(store));
          const [locked = [], stored = []] = await run(script.join(";\n"));
          return {
            rows: locked.map(taskRowOf),
            stored: stored.map((row) => String(row.event_id)),
          };
        },
        async write(statements) {
          if (statements.length === 0) return undefined;
          const results = await run(statements.map(inlineSql).join(";\n"));
          return results.at(-1)?.at(-1); // the last statement's last row
        },
      },
      reports,
      ctx,
    ),
  );
}
