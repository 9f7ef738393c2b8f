import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * A sign-in in progress: created by `/auth/start`, consumed once by `/oauth/callback`.
 * Only the SHA-256 of `state` is stored, so a database reader cannot complete someone's sign-in.
 */
export const loginAttempts = pgTable("login_attempts", {
  stateHash: text("state_hash").primaryKey(),
  redirectUri: text("redirect_uri").notNull(),
  codeChallenge: text("code_challenge").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One-time code handed to the extension after sign-in, bound to the PKCE challenge. */
export const handoffCodes = pgTable("handoff_codes", {
  codeHash: text("code_hash").primaryKey(),
  userId: bigint("user_id", { mode: "number" })
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  codeChallenge: text("code_challenge").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A signed-in device. The bearer token is random; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * Token buckets of the sign-in rate limits, shared by every instance. The key is a SHA-256 of
 * the endpoint and the client address: addresses themselves are not stored.
 */
export const rateLimits = pgTable("rate_limits", {
  keyHash: text("key_hash").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  /** Whether the last request was let through (set by the same statement that spends a token). */
  allowed: boolean("allowed").notNull(),
  at: timestamp("at", { withTimezone: true }).notNull(),
});

/**
 * A command-line sign-in in progress (RFC 8628 device authorization grant). The device polls with
 * `device_code`; the person types `user_code` on `/device`, signs in on the platform (`state`)
 * and confirms (`confirm`). Every one of these is stored only as its SHA-256.
 */
export const deviceAuthorizations = pgTable("device_authorizations", {
  deviceCodeHash: text("device_code_hash").primaryKey(),
  userCodeHash: text("user_code_hash").notNull().unique(),
  /** `pending` until the person approves or denies. */
  status: text("status", { enum: ["pending", "approved", "denied"] }).notNull(),
  /** The platform sign-in started from `/device` (single use, like `login_attempts`). */
  stateHash: text("state_hash").unique(),
  /** The one-time token of the confirmation form, issued after the platform sign-in. */
  confirmHash: text("confirm_hash").unique(),
  /** Who signed in on the platform for this code (before and after they confirm). */
  userId: bigint("user_id", { mode: "number" }).references(() => users.id, {
    onDelete: "cascade",
  }),
  /** The device's User-Agent, shown on the confirmation page and kept on its session. */
  userAgent: text("user_agent"),
  intervalSeconds: integer("interval_seconds").notNull(),
  lastPolledAt: timestamp("last_polled_at", { withTimezone: true }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
