import { bigint, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * The platform OAuth grant of a user (one per user: the primary key says so). Tokens are
 * AES-256-GCM ciphertexts with a key id prefix (see lib/crypto/vault.ts), never plaintext.
 * `version` increases on every refresh so a waiter can tell that another instance refreshed.
 */
export const grants = pgTable("grants", {
  userId: bigint("user_id", { mode: "number" })
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  accessTokenEnc: text("access_token_enc").notNull(),
  refreshTokenEnc: text("refresh_token_enc"),
  scope: text("scope").notNull(),
  accessExpiresAt: timestamp("access_expires_at", { withTimezone: true }).notNull(),
  status: text("status", { enum: ["active", "revoked"] })
    .notNull()
    .default("active"),
  revokedReason: text("revoked_reason"),
  version: integer("version").notNull().default(1),
  refreshedAt: timestamp("refreshed_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The access token (by platform id) a user chose for tasks in a namespace. */
export const tokenSelections = pgTable("token_selections", {
  userId: bigint("user_id", { mode: "number" })
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  namespace: text("namespace").notNull(),
  tokenId: bigint("token_id", { mode: "number" }).notNull(),
  tokenName: text("token_name").notNull(),
  usageScenario: text("usage_scenario").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Cached short-lived proxy tokens (spec 2.5), encrypted, per (user, namespace, token id). */
export const proxyTokens = pgTable(
  "proxy_tokens",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    namespace: text("namespace").notNull(),
    tokenId: bigint("token_id", { mode: "number" }).notNull(),
    tokenEnc: text("token_enc").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    mintedAt: timestamp("minted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.namespace, t.tokenId] })],
);

/**
 * Webhook secret per (user, account namespace), write-only through the API. After a reset the
 * previous secret stays valid until `previous_valid_until` (deliveries signed before the reset
 * may still be retried by the platform).
 */
export const webhookSecrets = pgTable(
  "webhook_secrets",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    namespace: text("namespace").notNull(),
    secretEnc: text("secret_enc").notNull(),
    previousSecretEnc: text("previous_secret_enc"),
    previousValidUntil: timestamp("previous_valid_until", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.namespace] })],
);
