import type { UserInfo } from "@overture/core/schemas";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import type { PublicUser } from "../../schemas/account.ts";
import { storableText } from "../../lib/storable.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";

export type UserRow = typeof users.$inferSelect;

/** What the API shows of a user (`schemas/account.ts`). */
export function publicUser(row: Pick<UserRow, "id" | "login" | "name" | "avatarUrl">): PublicUser {
  return { id: row.id, login: row.login, name: row.name, avatar_url: row.avatarUrl };
}

export interface UserDeps {
  db: AppDatabase;
  clock: Clock;
}

/**
 * People who signed in, keyed by their platform id. The platform's record is authoritative: every
 * sign-in overwrites login, name and avatar. A missing `name` shows the login, a missing avatar is
 * stored as "" (the spec lists both fields; some platforms leave them empty).
 */
export function createUserService({ db, clock }: UserDeps) {
  return {
    async get(userId: number): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      return row ?? null;
    },

    async upsert(info: UserInfo): Promise<UserRow> {
      const now = new Date(clock.now());
      // Platform text is kept, not refused (a refusal would make sign-in impossible): what
      // Postgres cannot store becomes U+FFFD.
      const values = {
        login: storableText(info.login),
        name: storableText(info.name ?? info.login),
        avatarUrl: storableText(info.avatar_url ?? ""),
        updatedAt: now,
      };
      const [row] = await db
        .insert(users)
        .values({ id: info.id, ...values, createdAt: now })
        .onConflictDoUpdate({ target: users.id, set: values })
        .returning();
      if (!row) throw new Error("user upsert returned no row");
      return row;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
