import { and, asc, eq, gt, lt, max, sql, sum, count } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import type { Executor } from "../../db/rows.ts";
import { RELAY_DELIVERIES_CHANNEL } from "../../db/channels.ts";
import {
  relayChannels,
  relayDeliveries,
  relayListeners,
  type RelayDeliveryRow,
} from "../../db/schema/index.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import { deliverySize } from "./headers.ts";

/** How long a buffered delivery stays for a listener that reconnects (Last-Event-ID). */
export const RELAY_REPLAY_WINDOW_MS = 5 * 60_000;
/** Rows a replay reads at a time. */
export const REPLAY_PAGE = 50;

/** A delivery as it arrived at `/relay/<token>…`. */
export interface IncomingDelivery {
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body: Uint8Array;
}

export type AcceptResult =
  { outcome: "accepted"; id: number } | { outcome: "no_listener" } | { outcome: "buffer_full" };

export interface BufferDeps {
  db: AppDatabase;
  clock: Clock;
  config: Pick<Config, "relay">;
}

/**
 * The channels' short buffers (`relay_deliveries`): what arrives is stored, announced by id on
 * NOTIFY (bodies stay in the table: a payload holds 8000 bytes at most) and read by the
 * listener's stream on whichever instance holds it. Bounded per channel in deliveries, bytes and
 * age; a delivery that does not fit is refused (503), never one already accepted dropped.
 */
export function createRelayBuffer({ db, clock, config }: BufferDeps) {
  const { bufferDeliveries, bufferBytes } = config.relay;
  const listening = (executor: Executor, channelId: string, now: number) =>
    executor
      .select({ id: relayListeners.id })
      .from(relayListeners)
      .where(
        and(eq(relayListeners.channelId, channelId), gt(relayListeners.leaseUntil, new Date(now))),
      )
      .limit(1);

  return {
    /** Whether a listener holds a live lease on the channel now (checked before the body is read). */
    async hasListener(channelId: string): Promise<boolean> {
      return (await listening(db, channelId, clock.now())).length > 0;
    },

    /**
     * Stores a delivery if the channel has a listener and room. One transaction holding the
     * channel's row lock, so concurrent deliveries (on any instance) count each other exactly;
     * its NOTIFY is sent at commit, when the row can be read.
     */
    async accept(channelId: string, delivery: IncomingDelivery): Promise<AcceptResult> {
      const now = clock.now();
      const size = deliverySize(delivery.body, delivery.headers);
      return db.transaction(async (tx) => {
        await tx
          .select({ id: relayChannels.id })
          .from(relayChannels)
          .where(eq(relayChannels.id, channelId))
          .for("update");
        const [listener] = await listening(tx, channelId, now);
        if (!listener) return { outcome: "no_listener" } as const;
        await tx
          .delete(relayDeliveries)
          .where(
            and(
              eq(relayDeliveries.channelId, channelId),
              lt(relayDeliveries.receivedAt, new Date(now - RELAY_REPLAY_WINDOW_MS)),
            ),
          );
        const [held] = await tx
          .select({ n: count(), bytes: sum(relayDeliveries.size).mapWith(Number) })
          .from(relayDeliveries)
          .where(eq(relayDeliveries.channelId, channelId));
        if ((held?.n ?? 0) >= bufferDeliveries || (held?.bytes ?? 0) + size > bufferBytes)
          return { outcome: "buffer_full" } as const;
        const [row] = await tx
          .insert(relayDeliveries)
          .values({ channelId, receivedAt: new Date(now), size, ...delivery })
          .returning({ id: relayDeliveries.id });
        if (!row) throw new Error("relay delivery insert returned no row");
        await tx
          .update(relayChannels)
          .set({ lastDeliveryAt: new Date(now) })
          .where(eq(relayChannels.id, channelId));
        await tx.execute(
          sql`select pg_notify(${RELAY_DELIVERIES_CHANNEL}, ${`${channelId}:${row.id}`})`,
        );
        return { outcome: "accepted", id: row.id } as const;
      });
    },

    /** The channel's deliveries after `afterId`, oldest first, a page at most. */
    async after(channelId: string, afterId: number): Promise<RelayDeliveryRow[]> {
      return db
        .select()
        .from(relayDeliveries)
        .where(and(eq(relayDeliveries.channelId, channelId), gt(relayDeliveries.id, afterId)))
        .orderBy(asc(relayDeliveries.id))
        .limit(REPLAY_PAGE);
    },

    /** The newest delivery id of each channel that has one (a stream's catch-up read). */
    async newest(channelIds: readonly string[]): Promise<Map<string, number>> {
      if (channelIds.length === 0) return new Map();
      const rows = await db
        .select({ channelId: relayDeliveries.channelId, id: max(relayDeliveries.id) })
        .from(relayDeliveries)
        .where(sql`${relayDeliveries.channelId} in ${channelIds}`)
        .groupBy(relayDeliveries.channelId);
      return new Map(rows.map((row) => [row.channelId, row.id ?? 0]));
    },

    /** Deletes deliveries past the replay window, in every channel. */
    async prune(): Promise<void> {
      await db
        .delete(relayDeliveries)
        .where(lt(relayDeliveries.receivedAt, new Date(clock.now() - RELAY_REPLAY_WINDOW_MS)));
    },
  };
}

export type RelayBuffer = ReturnType<typeof createRelayBuffer>;
