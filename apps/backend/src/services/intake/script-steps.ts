import type { ScriptSession } from "../../db/client.ts";
import {
  applyWithSteps,
  type ApplyContext,
  type ApplyResult,
  type ApplySteps,
} from "../tasks/apply.ts";
import type { PlatformReport } from "../tasks/merge.ts";
import { lockTasksText, taskRowOf } from "../tasks/store.ts";

/**
 * A batch in two round trips on Postgres (node-postgres sends one statement at a time and does
 * not pipeline): `begin; lock; insert events` in one message, the merge in memory, then
 * `update; append; commit` in one message. The task-events lock (taken in the append) is thus
 * released by the same message that took it: no round trip through the event loop while
 * another batch waits for it. Any failure rolls back; a connection in doubt is dropped.
 */
export async function applyInScript(
  openSession: () => Promise<ScriptSession>,
  reports: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  const session = await openSession();
  const state = { inTransaction: false };
  const steps: ApplySteps = {
    async lockAndStore(ids, store) {
      state.inTransaction = true;
      const script = ["begin", lockTasksText(ids)];
      if (store) script.push(store);
      const [, locked = [], stored = []] = await session.run(script.join(";\n"));
      return { rows: locked.map(taskRowOf), stored: stored.map((row) => String(row.event_id)) };
    },
    async write(statements) {
      const results = await session.run([...statements, "commit"].join(";\n"));
      state.inTransaction = false;
      return results.at(-2)?.at(-1); // the last statement's last row (before the commit's)
    },
  };
  try {
    const result = await applyWithSteps(steps, reports, ctx);
    session.release();
    return result;
  } catch (error) {
    if (!state.inTransaction) session.release();
    else {
      await session.run("rollback").then(
        () => {
          session.release();
        },
        () => {
          session.release(true);
        },
      );
    }
    throw error;
  }
}
