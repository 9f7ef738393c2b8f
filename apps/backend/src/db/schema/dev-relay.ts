import {
  bigint,
  bigserial,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/** `bytea` as a Uint8Array on both drivers: a relayed body is kept byte for byte. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * A developer's relay channel (`overture-webhooks listen`): `{PUBLIC_URL}/relay/<token>/…`
 * receives deliveries for the owner's listener. Only the SHA-256 of the token is stored, as for
 * share links: a database dump lets nobody post into someone's channel.
 */
export const relayChannels = pgTable(
  "relay_channels",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The owner's own name for it (optional). */
    label: text("label"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastDeliveryAt: timestamp("last_delivery_at", { withTimezone: true }),
  },
  (t) => [index("relay_channels_user_idx").on(t.userId)],
);

/**
 * A listener connected to a channel, on some instance. Its lease is renewed while the stream is
 * open and the row deleted when it closes: a delivery is accepted only while a lease is live, so
 * an instance that dies stops accepting for its listeners within one lease.
 */
export const relayListeners = pgTable(
  "relay_listeners",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    channelId: uuid("channel_id")
      .notNull()
      .references(() => relayChannels.id, { onDelete: "cascade" }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }).notNull(),
  },
  (t) => [index("relay_listeners_channel_idx").on(t.channelId)],
);

/**
 * The short buffer of a channel's deliveries, exactly as they arrived: what a listener on any
 * instance streams (the NOTIFY carries only the id) and what a reconnect with Last-Event-ID
 * replays. Rows older than the replay window are pruned.
 */
export const relayDeliveries = pgTable(
  "relay_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    channelId: uuid("channel_id")
      .notNull()
      .references(() => relayChannels.id, { onDelete: "cascade" }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
    method: text("method").notNull(),
    /** What followed `/relay/<token>` in the path ("" or "/…"). */
    path: text("path").notNull(),
    /** The query as received, without "?" ("" when there was none). */
    query: text("query").notNull(),
    /** Name/value pairs, hop-by-hop and proxy headers removed (services/dev-relay/headers.ts). */
    headers: jsonb("headers").$type<[string, string][]>().notNull(),
    body: bytea("body").notNull(),
    /** Body and header bytes: what the buffer's byte bound counts. */
    size: integer("size").notNull(),
  },
  (t) => [index("relay_deliveries_channel_idx").on(t.channelId, t.id)],
);

export type RelayChannelRow = typeof relayChannels.$inferSelect;
export type RelayDeliveryRow = typeof relayDeliveries.$inferSelect;
