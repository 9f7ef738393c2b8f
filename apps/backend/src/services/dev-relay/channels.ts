import { and, count, desc, eq } from "drizzle-orm";
import type { AppDatabase } from "../../db/client.ts";
import { relayChannels, type RelayChannelRow } from "../../db/schema/index.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import { ApiError } from "../../lib/errors.ts";
import { newOpaqueToken, sha256Hex } from "../../lib/secrets.ts";
import { storableText } from "../../lib/storable.ts";
import { RELAY_CHANNEL_LIMIT, RELAY_CHANNEL_NOT_FOUND } from "../../schemas/error-codes.ts";
import type { RelayChannel } from "../../schemas/relay.ts";

/** A channel token: 256 random bits from the CSPRNG, `rl_` so a leaked one is recognisable. */
const TOKEN = /^rl_[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ChannelDeps {
  db: AppDatabase;
  clock: Clock;
  config: Pick<Config, "publicUrl" | "relay">;
}

/**
 * Relay channels: the owner creates, lists and deletes them; `resolve` turns the token of a
 * relay URL into its channel. Like a share link, the token is shown once and stored as SHA-256.
 * Every other lookup is scoped to the owner: another user's channel answers as a missing one.
 */
export function createRelayChannels({ db, clock, config }: ChannelDeps) {
  const toJson = (row: RelayChannelRow, token?: string): RelayChannel => ({
    id: row.id,
    url: token ? `${config.publicUrl}/relay/${token}` : null,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    last_delivery_at: row.lastDeliveryAt?.toISOString() ?? null,
  });
  const notFound = () =>
    new ApiError(404, RELAY_CHANNEL_NOT_FOUND, "You have no relay channel with this id.");

  return {
    async create(userId: number, label: string | undefined): Promise<RelayChannel> {
      const [held] = await db
        .select({ n: count() })
        .from(relayChannels)
        .where(eq(relayChannels.userId, userId));
      const limit = config.relay.channelsPerUser;
      if ((held?.n ?? 0) >= limit)
        throw new ApiError(
          409,
          RELAY_CHANNEL_LIMIT,
          `You have ${limit} relay channels, the most allowed: delete one first.`,
        );
      const token = newOpaqueToken("rl");
      const [row] = await db
        .insert(relayChannels)
        .values({
          userId,
          tokenHash: sha256Hex(token),
          label: label === undefined ? null : storableText(label),
          createdAt: new Date(clock.now()),
        })
        .returning();
      if (!row) throw new Error("relay channel insert returned no row");
      return toJson(row, token);
    },

    async list(userId: number): Promise<RelayChannel[]> {
      const rows = await db
        .select()
        .from(relayChannels)
        .where(eq(relayChannels.userId, userId))
        .orderBy(desc(relayChannels.createdAt), desc(relayChannels.id));
      return rows.map((row) => toJson(row));
    },

    /** The caller's channel with this id; 404 `relay_channel_not_found` otherwise. */
    async owned(userId: number, channelId: string): Promise<RelayChannelRow> {
      const [row] = UUID.test(channelId)
        ? await db
            .select()
            .from(relayChannels)
            .where(and(eq(relayChannels.id, channelId), eq(relayChannels.userId, userId)))
        : [];
      if (!row) throw notFound();
      return row;
    },

    /** Deletes the channel, its buffer and its listeners' leases (its URL answers 404 at once). */
    async remove(userId: number, channelId: string): Promise<void> {
      const deleted = UUID.test(channelId)
        ? await db
            .delete(relayChannels)
            .where(and(eq(relayChannels.id, channelId), eq(relayChannels.userId, userId)))
            .returning({ id: relayChannels.id })
        : [];
      if (deleted.length === 0) throw notFound();
    },

    /** The channel a relay URL's token opens, or null (a malformed token is not looked up). */
    async resolve(token: string): Promise<RelayChannelRow | null> {
      if (!TOKEN.test(token)) return null;
      const [row] = await db
        .select()
        .from(relayChannels)
        .where(eq(relayChannels.tokenHash, sha256Hex(token)));
      return row ?? null;
    },
  };
}

export type RelayChannels = ReturnType<typeof createRelayChannels>;
