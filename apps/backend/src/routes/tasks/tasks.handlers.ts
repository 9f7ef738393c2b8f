import { OpenAPIHono } from "@hono/zod-openapi";
import { TASK_STATES, type TaskState } from "../../schemas/task-states.ts";
import { type AppEnv, validationHook } from "../../app-env.ts";
import type { AppDeps } from "../../services/index.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireSession } from "../../middleware/session.ts";
import { serveStoredFile } from "./audio.ts";
import { toPeaksJson } from "./peaks-json.ts";
import {
  cancelTask,
  createTask,
  getTask,
  getTaskAudio,
  getTaskPeaks,
  listTasks,
} from "./tasks.routes.ts";
import type { AUDIO_FORMATS } from "../../schemas/archive.ts";
import { RENDITION_CONTENT_TYPE } from "../../services/archive/rendition.ts";
import { INVALID_REQUEST, NOT_ARCHIVED } from "../../schemas/error-codes.ts";

type AudioFormat = (typeof AUDIO_FORMATS)[number];

const isWav = (contentType: string) => /^audio\/(x-)?wave?$/.test(contentType);

function notArchived(what: string): ApiError {
  return new ApiError(
    404,
    NOT_ARCHIVED,
    what === "original"
      ? "This task's result is not archived here; use its file_url while it lasts."
      : `This task's result has no archived ${what} here.`,
  );
}

function parseStatuses(value: string | undefined): TaskState[] | undefined {
  if (!value) return undefined;
  const statuses = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = statuses.filter((s) => !(TASK_STATES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new ApiError(
      400,
      INVALID_REQUEST,
      `Unknown status ${unknown.join(", ")}; use ${TASK_STATES.join(", ")}.`,
    );
  }
  return statuses as TaskState[];
}

export function tasksRouter(deps: AppDeps) {
  const { sessions, tasks, archive } = deps.services;
  const middleware = requireSession(sessions);

  /** The stored file that answers `format`: `mp3` is the original when that is one already. */
  async function pickFile(taskId: string, format: AudioFormat) {
    const original = await archive.file(taskId, "original");
    if (format === "original") return original;
    if (format === "wav") return original && isWav(original.contentType) ? original : undefined;
    if (original?.contentType === RENDITION_CONTENT_TYPE) return original;
    return archive.file(taskId, "rendition");
  }

  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi({ ...createTask, middleware }, async (c) => {
      const task = await tasks.create(c.get("session").userId, c.req.valid("json"));
      return c.json(task, 201);
    })
    .openapi({ ...listTasks, middleware }, async (c) => {
      const query = c.req.valid("query");
      const page = await tasks.list(c.get("session").userId, {
        statuses: parseStatuses(query.status),
        limit: query.limit,
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      return c.json(page, 200);
    })
    .openapi({ ...getTask, middleware }, async (c) => {
      return c.json(await tasks.get(c.get("session").userId, c.req.valid("param").id), 200);
    })
    .openapi({ ...cancelTask, middleware }, async (c) => {
      const { task, pending } = await tasks.cancel(
        c.get("session").userId,
        c.req.valid("param").id,
      );
      return pending ? c.json(task, 202) : c.json(task, 200);
    })
    .openapi({ ...getTaskAudio, middleware }, async (c) => {
      const row = await tasks.owned(c.get("session").userId, c.req.valid("param").id);
      const { format } = c.req.valid("query");
      const file = row.archiveStatus === "archived" ? await pickFile(row.id, format) : undefined;
      if (!file || !(await archive.files.readable(file))) throw notArchived(format);
      return serveStoredFile(archive.files, file, c.req.valid("header"));
    })
    .openapi({ ...getTaskPeaks, middleware }, async (c) => {
      const row = await tasks.owned(c.get("session").userId, c.req.valid("param").id);
      const peaks = row.archiveStatus === "archived" ? await archive.peaks(row.id) : undefined;
      if (!peaks) throw notArchived("peaks");
      return c.json(toPeaksJson(peaks), 200);
    });
}
