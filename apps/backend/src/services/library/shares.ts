import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { shareLinks, tasks, type ShareLinkRow, type TaskRow } from "../../db/schema/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { NOT_ARCHIVED, SHARE_GONE, SHARE_NOT_FOUND } from "../../schemas/error-codes.ts";
import type { Share, ShareCreate, ShareExpiry } from "../../schemas/share.ts";
import type { AppDatabase } from "../../db/client.ts";
import type { Config } from "../../env/env.ts";
import type { Clock } from "../../lib/clock.ts";
import type { TaskRecord } from "../tasks/record.ts";

const DAY_MS = 86_400_000;
const EXPIRY_MS: Record<ShareExpiry, number | null> = {
  "1d": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  never: null,
};

/** 256 random bits: unguessable, and the hash needs no salt. */
const newToken = () => randomBytes(32).toString("base64url");
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
/** Shape of a token this service issued; anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Public links to one archived track. The owner creates, lists and revokes them; `resolve`
 * turns a token into the track it opens, or says why it does not (unknown, revoked, expired).
 */
export function createShareService(deps: {
  record: TaskRecord;
  db: AppDatabase;
  clock: Clock;
  config: Pick<Config, "publicUrl">;
}) {
  const { record, db, clock, config } = deps;

  const statusOf = (row: ShareLinkRow) => shareStatus(row, clock.now());
  const toJson = (row: ShareLinkRow, token?: string) =>
    shareJson(row, { publicUrl: config.publicUrl, now: clock.now() }, token);

  return {
    async create(userId: number, taskId: string, input: ShareCreate): Promise<Share> {
      const task = await record.owned(userId, taskId);
      if (task.archiveStatus !== "archived")
        throw new ApiError(
          404,
          NOT_ARCHIVED,
          "Only a result archived on this server can be shared; wait until it is archived.",
        );
      const token = newToken();
      const now = clock.now();
      const lifetime = EXPIRY_MS[input.expires_in];
      const [row] = await db
        .insert(shareLinks)
        .values({
          userId,
          taskId: task.id,
          tokenHash: hashToken(token),
          includeText: input.include_text,
          expiresAt: lifetime === null ? null : new Date(now + lifetime),
          createdAt: new Date(now),
        })
        .returning();
      if (!row) throw new Error("share insert returned no row");
      return toJson(row, token);
    },

    async list(userId: number, taskId: string): Promise<Share[]> {
      const task = await record.owned(userId, taskId);
      const rows = await db
        .select()
        .from(shareLinks)
        .where(and(eq(shareLinks.taskId, task.id), eq(shareLinks.userId, userId)))
        .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
      return rows.map((row) => toJson(row));
    },

    /** Ends a link at once (idempotent: revoking twice keeps the first time). */
    async revoke(userId: number, shareId: string): Promise<Share> {
      const [row] = UUID.test(shareId)
        ? await db
            .select()
            .from(shareLinks)
            .where(and(eq(shareLinks.id, shareId), eq(shareLinks.userId, userId)))
        : [];
      if (!row) throw new ApiError(404, SHARE_NOT_FOUND, `No share link ${shareId} of yours.`);
      if (row.revokedAt) return toJson(row);
      const [revoked] = await db
        .update(shareLinks)
        .set({ revokedAt: new Date(clock.now()) })
        .where(eq(shareLinks.id, row.id))
        .returning();
      return toJson(revoked ?? row);
    },

    /**
     * The link and its track for a public request: 404 `share_not_found` for a token never
     * issued (or whose track was deleted), 410 `share_gone` once revoked or expired.
     */
    async resolve(token: string): Promise<{ share: ShareLinkRow; task: TaskRow }> {
      const [found] = TOKEN.test(token)
        ? await db
            .select({ share: shareLinks, task: tasks })
            .from(shareLinks)
            .innerJoin(tasks, eq(tasks.id, shareLinks.taskId))
            .where(eq(shareLinks.tokenHash, hashToken(token)))
        : [];
      if (!found || found.task.deletedAt)
        throw new ApiError(404, SHARE_NOT_FOUND, "No shared track at this address.");
      if (statusOf(found.share) !== "active")
        throw new ApiError(410, SHARE_GONE, "This share link has been revoked or has expired.");
      return found;
    },
  };
}

/** A link's state at `now` (epoch ms). */
function shareStatus(row: ShareLinkRow, now: number): Share["status"] {
  if (row.revokedAt) return "revoked";
  return row.expiresAt && row.expiresAt.getTime() <= now ? "expired" : "active";
}

/** A link as the API shows it; its URL only when its token is at hand (just created). */
function shareJson(
  row: ShareLinkRow,
  at: { publicUrl: string; now: number },
  token?: string,
): Share {
  return {
    id: row.id,
    task_id: row.taskId,
    url: token ? `${at.publicUrl}/s/${token}` : null,
    include_text: row.includeText,
    status: shareStatus(row, at.now),
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ShareService = ReturnType<typeof createShareService>;
