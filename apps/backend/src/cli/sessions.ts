import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { sessions as sessionsTable, users } from "../db/schema/index.ts";
import type { Config } from "../env/env.ts";
import { systemClock } from "../lib/clock.ts";
import { createSessionService } from "../services/auth/sessions.ts";
import { type CliIo, EXIT } from "./io.ts";
import { withDatabase } from "./maintenance.ts";

export interface SessionsCommand {
  action: "list" | "revoke";
  /** The platform user id, or the login. */
  user: string;
  session?: string;
  all: boolean;
}

/**
 * `overture-backend sessions list|revoke`: a user's live sessions (devices signed in), and
 * revoking one or all of them. A revoked session is refused on its next request on every
 * instance, and its live-event streams end at once.
 */
export async function sessionsCommand(
  config: Config,
  io: CliIo,
  command: SessionsCommand,
): Promise<number> {
  return withDatabase(
    config,
    async (database) => {
      const { db } = database;
      const byId = /^\d+$/.test(command.user)
        ? eq(users.id, Number(command.user))
        : eq(users.login, command.user);
      const [user] = await db.select({ id: users.id, login: users.login }).from(users).where(byId);
      if (!user) {
        io.err(`no user with id or login ${JSON.stringify(command.user)}`);
        return EXIT.failed;
      }
      const sessions = createSessionService({ db, database, clock: systemClock, config });
      const live = await sessions.list(user.id);
      if (command.action === "list") {
        io.out(`${live.length} live session(s) of ${user.login} (${user.id})`);
        for (const s of live)
          io.out(
            [
              s.id,
              `created ${s.createdAt.toISOString()}`,
              `last used ${s.lastUsedAt.toISOString()}`,
              `expires ${s.expiresAt.toISOString()}`,
              s.userAgent ?? "(no user agent)",
            ].join("  "),
          );
        return EXIT.ok;
      }
      const targets = command.all ? live.map((s) => s.id) : [command.session ?? ""];
      let revoked = 0;
      for (const id of targets) if (await sessions.revoke(user.id, id)) revoked += 1;
      io.out(`revoked ${revoked} session(s) of ${user.login} (${user.id})`);
      // Nothing left to revoke is the state asked for, so it exits 0 like `--all` with no live
      // session; the note says why nothing was revoked (a mistyped id shows as "no session").
      if (revoked < targets.length && command.session !== undefined)
        io.out(`note: ${await whyNotRevoked(db, user.id, command.session)}`);
      else if (targets.length === 0) io.out("note: the user has no live session");
      return EXIT.ok;
    },
    { command: "sessions" },
  );
}

/** Why `sessions revoke --session <id>` revoked nothing: the session is unknown, or already over. */
async function whyNotRevoked(db: Database["db"], userId: number, sessionId: string) {
  const [row] = await db
    .select({ revokedAt: sessionsTable.revokedAt })
    .from(sessionsTable)
    .where(and(eq(sessionsTable.id, sessionId), eq(sessionsTable.userId, userId)));
  if (!row) return `the user has no session ${sessionId} (\`sessions list\` shows the live ones)`;
  return `session ${sessionId} was already revoked${row.revokedAt ? ` at ${new Date(row.revokedAt).toISOString()}` : ""}`;
}
