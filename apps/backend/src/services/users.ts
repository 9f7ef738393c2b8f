import type { UserInfo } from "@overture/core/schemas";
import { eq } from "drizzle-orm";
import { users } from "../db/schema/index.ts";
import type { BaseDeps } from "../deps.ts";

export type UserRow = typeof users.$inferSelect;

/** What the API shows of a user (spec 2.3 field names). */
export interface PublicUser {
  id: number;
  login: string;
  name: string;
  avatar_url: string;
}

export function publicUser(row: Pick<UserRow, "id" | "login" | "name" | "avatarUrl">): PublicUser {
  return { id: row.id, login: row.login, name: row.name, avatar_url: row.avatarUrl };
}

/**
 * People who signed in, keyed by their platform id. The platform's record is authoritative: every
 * sign-in overwrites login, name and avatar. A missing `name` shows the login, a missing avatar is
 * stored as "" (the spec lists both fields; some platforms leave them empty).
 */
export function createUserService({ db, clock }: Pick<BaseDeps, "db" | "clock">) {
  return {
    async get(userId: number): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      return row ?? null;
    },

    async upsert(info: UserInfo): Promise<UserRow> {
      const now = new Date(clock.now());
      const values = {
        login: info.login,
        name: info.name ?? info.login,
        avatarUrl: info.avatar_url ?? "",
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
