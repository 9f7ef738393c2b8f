import { OpenAPIHono } from "@hono/zod-openapi";
import { type AppEnv, validationHook } from "../../middleware/app-env.ts";
import { ApiError } from "../../lib/errors.ts";
import { rateLimit } from "../../middleware/rate-limit.ts";
import { requireSession } from "../../middleware/session.ts";
import { NOT_ARCHIVED } from "../../schemas/error-codes.ts";
import { shareCreateSchema } from "../../schemas/share.ts";
import type { AppDeps } from "../../services/index.ts";
import { toPeaksJson } from "../archive/peaks-json.ts";
import { serveStoredFile } from "../archive/serve-file.ts";
import { SHARE_PAGE_CSP, publicTitle, shareGonePage, sharePage } from "./share-page.ts";
import { shareTexts } from "./share-texts.ts";
import {
  createShare,
  listShares,
  revokeShare,
  shareAudio,
  sharePage as sharePageRoute,
  sharePeaks,
} from "./shares.routes.ts";

/** Requests one address may make to share pages and their audio: a burst, then a steady rate. */
const SHARE_BURST = 60;
const SHARE_PER_MINUTE = 120;

/** A file name for the download: the title, with anything a header or a file system minds replaced. */
function attachmentName(title: string): string {
  const base =
    title
      .replace(/[^\p{L}\p{N} ._-]/gu, "_")
      .slice(0, 80)
      .trim() || "track";
  const ascii = base.replace(/[^\x20-\x7e]/g, "_");
  return `attachment; filename="${ascii}.mp3"; filename*=UTF-8''${encodeURIComponent(base)}.mp3`;
}

/**
 * Share links: the owner's routes (create, list, revoke) and the public ones under `/s/`, which
 * need no session, are rate-limited per address, and show the track's title, waveform and MP3
 * only (its prompt and lyrics when the owner chose, and a title that is the prompt's first line
 * only then), never its owner, ids or platform links.
 */
export function sharesRouter(deps: AppDeps) {
  const { sessions, shares, archive, rateLimits } = deps.services;
  const middleware = requireSession(sessions);
  const limited = rateLimit({
    name: "share",
    burst: SHARE_BURST,
    perMinute: SHARE_PER_MINUTE,
    store: rateLimits,
    trustedProxies: deps.config.trustedProxies,
    what: "requests for shared tracks",
  });

  /** The shared track's MP3 (or the original if that is one), readable here. */
  async function sharedAudio(token: string) {
    const { share, task } = await shares.resolve(token);
    const file =
      task.archiveStatus === "archived" ? await archive.audioFile(task.id, "mp3") : undefined;
    if (!file) throw new ApiError(404, NOT_ARCHIVED, "This track's audio is no longer available.");
    return { share, task, file };
  }

  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("/s/*", limited);
  return app
    .openapi({ ...createShare, middleware }, async (c) => {
      // The body is optional: without one (undefined here, whatever the type says) the defaults apply.
      const body = shareCreateSchema.parse({ ...c.req.valid("json") });
      const share = await shares.create(c.get("session").userId, c.req.valid("param").id, body);
      return c.json(share, 201);
    })
    .openapi({ ...listShares, middleware }, async (c) => {
      const list = await shares.list(c.get("session").userId, c.req.valid("param").id);
      return c.json({ shares: list }, 200);
    })
    .openapi({ ...revokeShare, middleware }, async (c) => {
      return c.json(await shares.revoke(c.get("session").userId, c.req.valid("param").id), 200);
    })
    .openapi(sharePageRoute, async (c) => {
      const { token } = c.req.valid("param");
      c.header("Content-Security-Policy", SHARE_PAGE_CSP);
      c.header("Cache-Control", "no-store");
      c.header("Vary", "Accept-Language");
      const texts = shareTexts(c.req.header("accept-language"));
      const found = await shares.resolve(token).catch((error: unknown) => {
        if (error instanceof ApiError) return error;
        throw error;
      });
      if (found instanceof ApiError)
        return found.status === 410
          ? c.html(shareGonePage(texts, 410), 410)
          : c.html(shareGonePage(texts, 404), 404);
      const { share, task } = found;
      const peaks = await archive.peaks(task.id);
      const text = (key: string) => (typeof task.params[key] === "string" ? task.params[key] : "");
      return c.html(
        sharePage({
          texts,
          token,
          title: publicTitle(task, share.includeText, texts),
          peaks: peaks ? toPeaksJson(peaks) : undefined,
          ...(share.includeText
            ? { text: { prompt: text("prompt"), lyrics: text("lyrics") } }
            : {}),
        }),
        200,
      );
    })
    .openapi(shareAudio, async (c) => {
      const { share, task, file } = await sharedAudio(c.req.valid("param").token);
      const response = serveStoredFile(archive.files, file, c.req.valid("header"));
      // Revalidated each time, so a revoked link stops playing at once; no task id in the name.
      response.headers.set("Cache-Control", "private, no-cache");
      response.headers.set(
        "Content-Disposition",
        c.req.valid("query").download === "1"
          ? attachmentName(
              publicTitle(task, share.includeText, shareTexts(c.req.header("accept-language"))),
            )
          : "inline",
      );
      return response;
    })
    .openapi(sharePeaks, async (c) => {
      const { task } = await shares.resolve(c.req.valid("param").token);
      const peaks = await archive.peaks(task.id);
      if (!peaks) throw new ApiError(404, NOT_ARCHIVED, "This track's waveform is not available.");
      c.header("Cache-Control", "private, no-cache");
      return c.json(toPeaksJson(peaks), 200);
    });
}
