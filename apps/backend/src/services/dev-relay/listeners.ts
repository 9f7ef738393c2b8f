import { inArray, lt } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { relayListeners } from "../../db/schema/index.ts";
import type { Clock } from "../../lib/clock.ts";

/** A listener's lease: renewed every few seconds while its stream is open. */
export const LISTENER_LEASE_MS = 30_000;

/**
 * Who listens, in the database, so a delivery landing on any instance knows whether a listener
 * is connected to some instance. A stream holds a row while it is open (deleted when it closes);
 * the row's lease outlives an instance that dies without closing it by at most `LISTENER_LEASE_MS`.
 */
export function createRelayListeners({ db, clock }: { db: AppDatabase; clock: Clock }) {
  const leaseEnd = () => new Date(clock.now() + LISTENER_LEASE_MS);
  return {
    async open(channelId: string): Promise<string> {
      const [row] = await db
        .insert(relayListeners)
        .values({ channelId, leaseUntil: leaseEnd() })
        .returning({ id: relayListeners.id });
      if (!row) throw new Error("relay listener insert returned no row");
      return row.id;
    },

    /** Renews the leases of `ids`; the ones whose row is gone (channel deleted, lease pruned). */
    async renew(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const renewed = await db
        .update(relayListeners)
        .set({ leaseUntil: leaseEnd() })
        .where(inArray(relayListeners.id, [...ids]))
        .returning({ id: relayListeners.id });
      const alive = new Set(renewed.map((row) => row.id));
      return new Set(ids.filter((id) => !alive.has(id)));
    },

    async close(ids: readonly string[]): Promise<void> {
      if (ids.length > 0)
        await db.delete(relayListeners).where(inArray(relayListeners.id, [...ids]));
    },

    /** Deletes leases that ended a while ago (an instance stopped without closing them). */
    async prune(): Promise<void> {
      await db
        .delete(relayListeners)
        .where(lt(relayListeners.leaseUntil, new Date(clock.now() - LISTENER_LEASE_MS)));
    },
  };
}

export type RelayListeners = ReturnType<typeof createRelayListeners>;
