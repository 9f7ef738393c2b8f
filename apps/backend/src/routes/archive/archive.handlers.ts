import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireSession } from "../../middleware/session.ts";
import { MEDIA_LINK_INVALID, NOT_ARCHIVED } from "../../schemas/error-codes.ts";
import type { AudioFormat } from "../../services/archive/media-links.ts";
import type { AppDeps } from "../../services/index.ts";
import {
  createMediaLink,
  getArchiveUsage,
  getMedia,
  getTaskAudio,
  getTaskPeaks,
} from "./archive.routes.ts";
import { toPeaksJson } from "./peaks-json.ts";
import { serveStoredFile } from "./serve-file.ts";

function notArchived(what: string): ApiError {
  return new ApiError(
    404,
    NOT_ARCHIVED,
    what === "original"
      ? "This task's result is not archived here; use its file_url while it lasts."
      : `This task's result has no archived ${what} here.`,
  );
}

/** Archived results: audio (by session or media link), peaks, media links and usage. */
export function archiveRouter(deps: AppDeps) {
  const { sessions, tasks, archive } = deps.services;
  const middleware = requireSession(sessions);

  /** The file answering `format` for the user's task; 404 unless it is archived and readable. */
  async function audioOf(userId: number, taskId: string, format: AudioFormat) {
    const file = await archive.ownedAudioFile(userId, taskId, format);
    if (file) return file;
    // Which 404: no such task of the user's, or not archived (asked only when there is none).
    await tasks.owned(userId, taskId);
    throw notArchived(format);
  }

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...getTaskAudio, middleware }, async (c) => {
      const file = await audioOf(
        c.get("session").userId,
        c.req.valid("param").id,
        c.req.valid("query").format,
      );
      return serveStoredFile(archive.files, file, c.req.valid("header"));
    })
    .openapi({ ...getTaskPeaks, middleware }, async (c) => {
      const row = await tasks.owned(c.get("session").userId, c.req.valid("param").id);
      const peaks = row.archiveStatus === "archived" ? await archive.peaks(row.id) : undefined;
      if (!peaks) throw notArchived("peaks");
      return c.json(toPeaksJson(peaks), 200);
    })
    .openapi({ ...createMediaLink, middleware }, async (c) => {
      const { userId } = c.get("session");
      const { format } = c.req.valid("query");
      const file = await audioOf(userId, c.req.valid("param").id, format);
      const link = archive.mediaLinks.issue(userId, file.taskId, format);
      return c.json({ url: link.url, expires_at: link.expiresAt.toISOString() }, 200);
    })
    .openapi(getMedia, async (c) => {
      const claims = archive.mediaLinks.read(c.req.valid("param").token);
      if (!claims)
        throw new ApiError(
          403,
          MEDIA_LINK_INVALID,
          "This media link was altered or has expired; ask the API for a new one.",
        );
      const file = await audioOf(claims.userId, claims.taskId, claims.format).catch(() => {
        // Deleted, expired by retention, or no longer the user's: the same answer for each.
        throw notArchived(claims.format);
      });
      const response = serveStoredFile(archive.files, file, c.req.valid("header"));
      // A link may be pasted elsewhere: no referrer leaves with it, no shared cache keeps it.
      response.headers.set("Referrer-Policy", "no-referrer");
      return response;
    })
    .openapi({ ...getArchiveUsage, middleware }, async (c) => {
      const usage = await archive.usage(c.get("session").userId);
      return c.json(
        {
          used_bytes: usage.usedBytes,
          quota_bytes: usage.quotaBytes,
          retention_days: usage.retentionMs === null ? null : usage.retentionMs / 86_400_000,
        },
        200,
      );
    });
}
