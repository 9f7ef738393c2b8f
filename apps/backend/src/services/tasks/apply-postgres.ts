import type { ScriptSession } from "../../db/client.ts";
import { executeText, inlined, prepareText, type Statement } from "../../db/script.ts";
import { applyWithSteps, type ApplyContext, type ApplyResult, type ApplySteps } from "./apply.ts";
import type { PlatformReport } from "./merge.ts";
import { lockTasksStatement, taskRowOf } from "./store.ts";

/** Statements prepared per connection at most; past that a statement runs with its values inlined. */
const MAX_PREPARED = 32;

/**
 * A batch in two round trips on Postgres (node-postgres sends one statement at a time and does
 * not pipeline): `begin; lock; insert events` in one message, the merge in memory, then
 * `update; append; commit` in one message. The task-events lock (taken in the append) is thus
 * released by the same message that took it: no round trip through the event loop while
 * another batch waits for it. Each statement is prepared once per connection (in the first
 * message that needs it) and then EXECUTEd: Postgres neither parses nor plans it per batch.
 * Any failure rolls back; a connection in doubt is dropped, and so is one where a failed message
 * held a PREPARE (which of them ran is not known).
 */
export async function applyInScript(
  openSession: () => Promise<ScriptSession>,
  reports: readonly PlatformReport[],
  ctx: ApplyContext,
): Promise<ApplyResult> {
  const session = await openSession();
  const state = { inTransaction: false, preparedInDoubt: false };

  /** Runs one message; answers the rows of each given statement (`begin`/`commit` included). */
  async function run(statements: readonly (Statement | string)[]) {
    const parts: string[] = [];
    const fresh: string[] = [];
    const positions = statements.map((statement) => {
      if (typeof statement === "string") return parts.push(statement) - 1;
      if (session.prepared.has(statement.name)) return parts.push(executeText(statement)) - 1;
      if (session.prepared.size + fresh.length >= MAX_PREPARED)
        return parts.push(inlined(statement)) - 1;
      fresh.push(statement.name);
      parts.push(prepareText(statement));
      return parts.push(executeText(statement)) - 1;
    });
    let results: Record<string, unknown>[][];
    try {
      results = await session.run(parts.join(";\n"));
    } catch (error) {
      if (fresh.length > 0) state.preparedInDoubt = true;
      throw error;
    }
    for (const name of fresh) session.prepared.add(name);
    return positions.map((at) => results[at] ?? []);
  }

  const steps: ApplySteps = {
    async lockAndStore(ids, store) {
      state.inTransaction = true;
      const script = ["begin", lockTasksStatement(ids), ...(store ? [store] : [])];
      const [, locked = [], stored = []] = await run(script);
      return { rows: locked.map(taskRowOf), stored: stored.map((row) => String(row.event_id)) };
    },
    async write(statements) {
      const results = await run([...statements, "commit"]);
      state.inTransaction = false;
      return results.at(-2)?.at(-1); // the last statement's last row (before the commit's)
    },
  };
  try {
    const result = await applyWithSteps(steps, reports, ctx);
    session.release();
    return result;
  } catch (error) {
    if (!state.inTransaction) session.release(state.preparedInDoubt);
    else {
      await session.run("rollback").then(
        () => {
          session.release(state.preparedInDoubt);
        },
        () => {
          session.release(true);
        },
      );
    }
    throw error;
  }
}
