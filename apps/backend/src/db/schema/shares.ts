import { bigint, boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks.ts";
import { users } from "./users.ts";

/**
 * Public links to one track, created by its owner. Only the SHA-256 of the token is stored: a
 * database dump opens no share. A link ends at `expires_at` (null: never) or when revoked; it
 * goes with its task.
 */
export const shareLinks = pgTable(
  "share_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** Whether the public page shows the prompt and lyrics (off unless the owner ticks it). */
    includeText: boolean("include_text").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("share_links_task_idx").on(t.taskId)],
);

export type ShareLinkRow = typeof shareLinks.$inferSelect;
