import { sql } from "drizzle-orm";
import { sha256Hex } from "../../lib/secrets.ts";
import { queryRows } from "../../db/rows.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";

/** Spends one token of a bucket; the sign-in rate limits (middleware/rate-limit.ts) use it. */
export interface RateLimitStore {
  take(
    key: string,
    bucket: { burst: number; perMs: number },
  ): Promise<{ allowed: boolean; tokens: number }>;
}

// Every this many takes, buckets idle long enough to be full again are deleted: a full bucket
// and a missing one mean the same, so the table holds only clients seen lately.
const PRUNE_EVERY = 500;

export interface RateLimitDeps {
  db: AppDatabase;
  clock: Clock;
}

/**
 * The sign-in rate limits' token buckets in the database, so every instance spends from the
 * same bucket. One statement per request: the upsert refills the bucket for the time elapsed,
 * spends a token if one is there, and says whether it did; its row lock orders concurrent
 * requests of one client, on one instance or several.
 */
export function createRateLimitStore({ db, clock }: RateLimitDeps): RateLimitStore {
  let takes = 0;
  let longestRefillMs = 0;

  async function prune(now: number): Promise<void> {
    const cutoff = new Date(now - longestRefillMs).toISOString();
    await db.execute(sql`delete from rate_limits where at < ${cutoff}::timestamptz`);
  }

  return {
    async take(key, { burst, perMs }) {
      const now = clock.now();
      longestRefillMs = Math.max(longestRefillMs, burst / perMs);
      const at = new Date(now).toISOString();
      // The refilled level, written once and used three times below.
      const refilled = sql`least(${burst}::float8, r.tokens + greatest(0, extract(epoch from (excluded.at - r.at)) * 1000) * ${perMs}::float8)`;
      const [row] = await queryRows<{ allowed: boolean; tokens: number }>(
        db,
        sql`
        insert into rate_limits as r (key_hash, tokens, allowed, at)
        values (${sha256Hex(key)}, ${burst - 1}::float8, true, ${at}::timestamptz)
        on conflict (key_hash) do update set
          tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
          allowed = ${refilled} >= 1,
          at = excluded.at
        returning allowed, tokens`,
      );
      if (++takes % PRUNE_EVERY === 0) await prune(now);
      return { allowed: row?.allowed ?? true, tokens: row?.tokens ?? burst };
    },
  };
}
