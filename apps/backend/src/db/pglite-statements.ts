import { literal, type Statement } from "./script.ts";

/** Distinct statement texts kept prepared (a batch's UPDATE has one text per set of changed columns). */
const MAX_PREPARED = 64;

/** What to send for some statements: the PREPAREs they still need, then their EXECUTEs. */
export interface StatementPlan {
  /** `deallocate …; prepare …` to run first, when a text is new (undefined when none is). */
  prepare?: string;
  /** One `execute` per statement, in order: one result each. */
  execute: string;
  /** To call once `prepare` has run: the new names are then known to the session. */
  prepared(): void;
}

/**
 * Named prepared statements of the one PGlite session, by statement text. An unnamed statement
 * (what drizzle sends) is parsed, analysed and planned on every run; a prepared one once, and
 * after five runs Postgres keeps a generic plan. Values are inlined as literals in the EXECUTE
 * (db/script.ts), so a batch is one script. PREPARE is not transactional: a name stays once its
 * PREPARE ran, whatever becomes of the transaction, so a name is remembered only then; after a
 * PREPARE that failed, the next one starts with `deallocate all`. Used only inside PGlite's
 * transactions (db/pglite.ts), which run one at a time: a plan and its PREPARE and EXECUTE never
 * interleave with another's.
 */
export function createStatementCache(max = MAX_PREPARED) {
  // Statement text → name, oldest first (the first to go when full).
  const names = new Map<string, string>();
  let counter = 0;
  let uncertain = false;

  return {
    plan(statements: readonly Statement[]): StatementPlan {
      const queries = statements.map(({ text, params }) => ({ sql: text, params }));
      const fresh = new Map<string, string>();
      const prepare: string[] = [];
      if (uncertain) {
        prepare.push("deallocate all");
        names.clear();
      }
      const executes = queries.map(({ sql, params }) => {
        let name = names.get(sql) ?? fresh.get(sql);
        if (!name) {
          name = `overture_s${(counter += 1)}`;
          fresh.set(sql, name);
          prepare.push(`prepare ${name} as ${sql}`);
        }
        return params.length === 0
          ? `execute ${name}`
          : `execute ${name}(${params.map(literal).join(", ")})`;
      });
      const evicted = [...names].slice(0, Math.max(0, names.size + fresh.size - max));
      for (const [, name] of evicted) prepare.unshift(`deallocate ${name}`);
      return {
        ...(prepare.length > 0 ? { prepare: prepare.join(";\n") } : {}),
        execute: executes.join(";\n"),
        prepared() {
          uncertain = false;
          for (const [sql] of evicted) names.delete(sql);
          for (const [sql, name] of fresh) names.set(sql, name);
        },
      };
    },
    /** A PREPARE failed part way: what the session holds is no longer known. */
    forget(): void {
      uncertain = true;
    },
  };
}

export type StatementCache = ReturnType<typeof createStatementCache>;
