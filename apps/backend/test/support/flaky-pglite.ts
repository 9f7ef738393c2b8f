import type { PGlite, Transaction } from "@electric-sql/pglite";
import { wrapPglite } from "../../src/db/pglite.ts";
import { createPgliteClient, type TestDatabase } from "./databases.ts";

/**
 * PGlite runs inside the process, so it cannot be "stopped" the way a Postgres server can. The
 * closest honest stand-in is an outage at the driver boundary: while `down`, every statement —
 * including those of a transaction already open — fails with the error a server shutting down
 * sends (SQLSTATE 57P01), and the transaction rolls back. What this does not cover (the pg
 * variant over a TCP proxy does): lost sockets, pool reconnects, the LISTEN connection.
 */
export interface FlakyPglite {
  open(): Promise<TestDatabase>;
  down(): void;
  up(): void;
  /** Statements refused while down. */
  readonly refused: number;
}

function shutdownError(): Error {
  return Object.assign(new Error("terminating connection due to administrator command"), {
    code: "57P01",
  });
}

type AnyFunction = (...args: unknown[]) => unknown;

export function flakyPglite(): FlakyPglite {
  let isDown = false;
  let refused = 0;
  const guarded =
    (target: object, fn: AnyFunction) =>
    (...args: unknown[]) => {
      if (isDown) {
        refused += 1;
        throw shutdownError();
      }
      return fn.apply(target, args);
    };
  const wrapTx = (tx: Transaction): Transaction =>
    new Proxy(tx, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property === "query" || property === "exec")
          return guarded(target, value as AnyFunction);
        return typeof value === "function" ? (value as AnyFunction).bind(target) : value;
      },
    });
  const wrap = (client: PGlite): PGlite =>
    new Proxy(client, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property === "query" || property === "exec")
          return guarded(target, value as AnyFunction);
        if (property === "transaction") {
          return guarded(target, (fn: unknown) =>
            target.transaction((tx) => (fn as (tx: Transaction) => Promise<unknown>)(wrapTx(tx))),
          );
        }
        return typeof value === "function" ? (value as AnyFunction).bind(target) : value;
      },
    });

  return {
    async open() {
      const client = await createPgliteClient();
      const database = wrapPglite(wrap(client));
      await database.migrate();
      return { database, drop: () => client.close() };
    },
    down() {
      isDown = true;
    },
    up() {
      isDown = false;
    },
    get refused() {
      return refused;
    },
  };
}
