import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type SQL } from "drizzle-orm";
import type { AppDatabase, Transaction } from "../../db/client.ts";
import { maintenanceRounds } from "../../lib/periodic.ts";
import { accessContext, refreshContext } from "./grants.ts";
import { proxyTokenContext } from "./proxy-tokens.ts";
import { queryRows } from "../../db/rows.ts";
import { webhookSecretContext } from "./webhook-secrets.ts";
import type { Vault } from "../../lib/vault.ts";
import type { Logger } from "../../lib/logger.ts";

/** A column of sealed values: its row key (name and SQL type) and the context values carry. */
interface SealedColumn {
  table: string;
  column: string;
  key: readonly (readonly [name: string, type: "bigint" | "text"])[];
  context: (key: readonly string[]) => string;
}

const userKey = [["user_id", "bigint"]] as const;
const accountKey = [...userKey, ["namespace", "text"]] as const;

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  {
    table: "grants",
    column: "access_token_enc",
    key: userKey,
    context: ([user = ""]) => accessContext(Number(user)),
  },
  {
    table: "grants",
    column: "refresh_token_enc",
    key: userKey,
    context: ([user = ""]) => refreshContext(Number(user)),
  },
  {
    table: "webhook_secrets",
    column: "secret_enc",
    key: accountKey,
    context: ([user = "", namespace = ""]) => webhookSecretContext(Number(user), namespace),
  },
  {
    table: "webhook_secrets",
    column: "previous_secret_enc",
    key: accountKey,
    context: ([user = "", namespace = ""]) => webhookSecretContext(Number(user), namespace),
  },
  {
    // A cache, but a live entry would stop opening once the old key is dropped.
    table: "proxy_tokens",
    column: "token_enc",
    key: [...accountKey, ["token_id", "bigint"]],
    context: ([user = "", namespace = "", token = ""]) =>
      proxyTokenContext(Number(user), namespace, Number(token)),
  },
];

export interface ResealOutcome {
  /** Values now sealed under the current key. */
  resealed: number;
  /** Stale values that did not open (a key no longer listed, a damaged value): left as they are. */
  failed: number;
}

export interface ResealDeps {
  db: AppDatabase;
  vault: Vault;
  logger: Logger;
}

/**
 * Re-seals values sealed with a retired key under the current one, so that after a rotation
 * (TOKEN_ENCRYPTION_KEYS=<new>,<old>) the old key can be dropped. Runs at start-up and then every
 * `intervalMs` (values an instance still on the old key list wrote meanwhile). Each batch is one
 * transaction that locks its rows `FOR UPDATE SKIP LOCKED`, so instances share the work, and
 * writes compare-and-set on the old ciphertext, so a value rewritten meanwhile is never replaced.
 * Logs counts only.
 */
export function createResealer(
  deps: ResealDeps,
  options: { intervalMs?: number; batchSize?: number } = {},
) {
  const { db, vault, logger } = deps;
  const batchSize = options.batchSize ?? 100;

  async function round(stopped: () => boolean): Promise<ResealOutcome> {
    const total: ResealOutcome = { resealed: 0, failed: 0 };
    for (const target of SEALED_COLUMNS) {
      if (stopped()) break;
      const outcome: ResealOutcome = { resealed: 0, failed: 0 };
      let after: string[] | undefined;
      do {
        const from = after;
        after = await db.transaction((tx) =>
          resealBatch({ vault, batchSize }, tx, target, from, outcome),
        );
        // PGlite answers without real I/O: let requests in between batches.
        await nextTurn();
      } while (after && !stopped());
      const where = `${target.table}.${target.column}`;
      if (outcome.resealed > 0)
        logger.info(
          { column: where, resealed: outcome.resealed },
          "re-sealed under the current key",
        );
      if (outcome.failed > 0)
        logger.warn(
          { column: where, failed: outcome.failed },
          "sealed values that open with no listed key were left as they are",
        );
      total.resealed += outcome.resealed;
      total.failed += outcome.failed;
    }
    return total;
  }

  /**
   * Values not sealed under the current key, counted without taking locks: a round skips rows
   * another process is re-sealing (SKIP LOCKED), so its own outcome cannot tell that all is done.
   */
  async function stale(): Promise<number> {
    let count = 0;
    for (const target of SEALED_COLUMNS) {
      const column = sql.identifier(target.column);
      const [row] = await queryRows<{ n: string | number }>(
        db,
        sql`select count(*) as n from ${sql.identifier(target.table)}
          where ${column} is not null and not starts_with(${column}, ${`v1.${vault.currentKeyId}.`})`,
      );
      count += Number(row?.n ?? 0);
    }
    return count;
  }

  return {
    ...maintenanceRounds({
      run: round,
      fallback: { resealed: 0, failed: 0 },
      intervalMs: options.intervalMs ?? 60 * 60_000,
      logger,
      what: "re-seal round",
    }),
    stale,
  };
}

/** One batch of stale values after `after` (key order); the last key seen, or undefined at the end. */
async function resealBatch(
  { vault, batchSize }: { vault: Vault; batchSize: number },
  tx: Transaction,
  target: SealedColumn,
  after: string[] | undefined,
  outcome: ResealOutcome,
): Promise<string[] | undefined> {
  const column = sql.identifier(target.column);
  const keys = sql.join(
    target.key.map(([name]) => sql.identifier(name)),
    sql`, `,
  );
  const keyValues = (values: readonly string[]): SQL =>
    sql.join(
      target.key.map(([, type], i) => sql`${values[i]}::${sql.raw(type)}`),
      sql`, `,
    );
  const rows = await queryRows<{ key: string[]; sealed: string }>(
    tx,
    sql`
    select array[${sql.join(
      target.key.map(([name]) => sql`${sql.identifier(name)}::text`),
      sql`, `,
    )}] as key, ${column} as sealed
    from ${sql.identifier(target.table)}
    where ${column} is not null and not starts_with(${column}, ${`v1.${vault.currentKeyId}.`})
      ${after ? sql`and (${keys}) > (${keyValues(after)})` : sql``}
    order by ${keys} limit ${batchSize} for update skip locked`,
  );
  for (const row of rows) {
    let fresh: string;
    try {
      const context = target.context(row.key);
      fresh = vault.seal(vault.open(row.sealed, context), context);
    } catch {
      outcome.failed += 1;
      continue;
    }
    const written = await queryRows(
      tx,
      sql`
      update ${sql.identifier(target.table)} set ${column} = ${fresh}
      where (${keys}) = (${keyValues(row.key)}) and ${column} = ${row.sealed}
      returning 1`,
    );
    outcome.resealed += written.length;
  }
  return rows.length === batchSize ? rows.at(-1)?.key : undefined;
}

export type Resealer = ReturnType<typeof createResealer>;
