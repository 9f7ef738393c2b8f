import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** People who signed in, keyed by their platform user id (spec 2.3). */
export const users = pgTable("users", {
  id: bigint("id", { mode: "number" }).primaryKey(),
  login: text("login").notNull(),
  name: text("name").notNull(),
  avatarUrl: text("avatar_url").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
