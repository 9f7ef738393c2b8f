import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { SESSIONS_REVOKED_CHANNEL } from "../../db/channels.ts";
import { sessions } from "../../db/schema/index.ts";
import { newOpaqueToken, sha256Hex } from "../../lib/secrets.ts";
import { storableText } from "../../lib/storable.ts";
import type { AppDatabase, Database } from "../../db/client.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Config } from "../../env/env.ts";

/** Who is calling, as established by the session middleware. */
export interface SessionContext {
  sessionId: string;
  userId: number;
}

export interface SessionSummary {
  id: string;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
}

// Sliding renewal writes at most once a minute per session, not on every request.
const RENEW_AFTER_MS = 60_000;

export interface SessionDeps {
  db: AppDatabase;
  database: Database;
  clock: Clock;
  config: Config;
}

/**
 * Backend sessions: opaque random bearer tokens (`ovs_…`), stored as SHA-256, with sliding
 * expiry and revocation that takes effect on the next request (every request reads the row).
 */
export function createSessionService(deps: SessionDeps) {
  const { db, database, clock } = deps;
  // After the revocation committed: a stream that ends reconnects and is refused (401).
  const announceRevoked = async (payload: string) => {
    await db.execute(sql`select pg_notify(${SESSIONS_REVOKED_CHANNEL}, ${payload})`);
  };

  return {
    create(
      userId: number,
      userAgent: string | null,
    ): Promise<{ token: string; id: string; expiresAt: Date }> {
      return insertSession(deps, userId, userAgent);
    },

    /** The session a bearer token belongs to, renewed if due; null when unknown, expired or revoked. */
    authenticate(token: string): Promise<SessionContext | null> {
      return authenticateSession(deps, token);
    },

    async list(userId: number): Promise<SessionSummary[]> {
      return db
        .select({
          id: sessions.id,
          userAgent: sessions.userAgent,
          createdAt: sessions.createdAt,
          lastUsedAt: sessions.lastUsedAt,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, new Date(clock.now())),
          ),
        )
        .orderBy(desc(sessions.lastUsedAt));
    },

    /**
     * Calls `onRevoked` for each session revoked on any instance, from now on (a LISTEN on
     * `SESSIONS_REVOKED_CHANNEL`); resolves to a function that stops it.
     */
    onRevoked(
      onRevoked: (userId: number, sessionId: string) => void,
    ): Promise<() => Promise<void>> {
      return database.listen(SESSIONS_REVOKED_CHANNEL, (payload) => {
        const colon = payload.indexOf(":");
        onRevoked(Number(payload.slice(0, colon)), payload.slice(colon + 1));
      });
    },

    /** Revokes one of the user's sessions; false when it is not theirs or already gone. */
    async revoke(userId: number, sessionId: string): Promise<boolean> {
      const revoked = await db
        .update(sessions)
        .set({ revokedAt: new Date(clock.now()) })
        .where(
          and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)),
        )
        .returning({ id: sessions.id });
      if (revoked.length === 0) return false;
      await announceRevoked(`${userId}:${sessionId}`);
      return true;
    },
  };
}

/** Opens a session for the user: its token, once, and when it expires. */
async function insertSession(
  deps: Pick<SessionDeps, "db" | "clock" | "config">,
  userId: number,
  userAgent: string | null,
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = newOpaqueToken("ovs");
  const now = deps.clock.now();
  const expiresAt = new Date(now + deps.config.sessionTtlMs);
  const [row] = await deps.db
    .insert(sessions)
    .values({
      tokenHash: sha256Hex(token),
      userId,
      userAgent: userAgent === null ? null : storableText(userAgent.slice(0, 300)),
      createdAt: new Date(now),
      lastUsedAt: new Date(now),
      expiresAt,
    })
    .returning({ id: sessions.id });
  if (!row) throw new Error("session insert returned no row");
  return { token, id: row.id, expiresAt };
}

/** The session of a bearer token, its expiry slid forward when due (RENEW_AFTER_MS). */
async function authenticateSession(
  deps: Pick<SessionDeps, "db" | "clock" | "config">,
  token: string,
): Promise<SessionContext | null> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .select({ id: sessions.id, userId: sessions.userId, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sha256Hex(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date(now)),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now - row.lastUsedAt.getTime() >= RENEW_AFTER_MS) {
    await deps.db
      .update(sessions)
      .set({ lastUsedAt: new Date(now), expiresAt: new Date(now + deps.config.sessionTtlMs) })
      .where(eq(sessions.id, row.id));
  }
  return { sessionId: row.id, userId: row.userId };
}

export type SessionService = ReturnType<typeof createSessionService>;
