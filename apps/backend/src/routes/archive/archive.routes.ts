import { createRoute, z } from "@hono/zod-openapi";
import {
  archiveUsageSchema,
  AUDIO_FORMATS,
  mediaLinkSchema,
  peaksSchema,
} from "../../schemas/archive.ts";
import { errorBody } from "../../schemas/common.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Tasks"];
const security = [{ session: [] }];

const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid" }),
});

const formatQuery = z.object({
  format: z.enum(AUDIO_FORMATS).default("original").openapi({
    description:
      "`original` as the platform made it, `wav` (the original, if it is one) or `mp3` (the rendition; the original if that is already MP3)",
  }),
});

const rangeHeaders = z.object({
  range: z.string().optional(),
  "if-range": z.string().optional(),
  "if-none-match": z.string().optional(),
});

const binary = (description: string) => ({
  description,
  content: { "audio/*": { schema: z.string().openapi({ format: "binary" }) } },
});

export const getTaskAudio = createRoute({
  method: "get",
  path: "/api/tasks/{id}/audio",
  tags,
  security,
  summary: "A task's archived result: the original or the MP3 rendition, with one byte range",
  request: {
    params: idParams,
    query: formatQuery,
    headers: rangeHeaders,
  },
  responses: {
    200: binary("The whole file (`ETag` is strong; files never change)"),
    206: binary("The requested range, with `Content-Range`"),
    304: { description: "`If-None-Match` names this file" },
    404: {
      description:
        "`task_not_found`, or `not_archived` (not yet, failed, expired or no such format)",
      content: json(errorBody),
    },
    416: { description: "Range not satisfiable (`Content-Range: bytes */<size>`)" },
    ...sessionErrors,
  },
});

export const getTaskPeaks = createRoute({
  method: "get",
  path: "/api/tasks/{id}/peaks",
  tags,
  security,
  summary: "The waveform of a task's archived result (a few KB; no audio is sent)",
  request: { params: idParams },
  responses: {
    200: { description: "The waveform", content: json(peaksSchema) },
    404: { description: "`task_not_found` or `not_archived`", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const createMediaLink = createRoute({
  method: "post",
  path: "/api/tasks/{id}/media-link",
  tags,
  security,
  summary:
    "A short-lived URL of a task's archived audio that needs no session: for an <audio> element, which cannot send the session bearer",
  request: { params: idParams, query: formatQuery },
  responses: {
    200: { description: "The link", content: json(mediaLinkSchema) },
    404: { description: "`task_not_found` or `not_archived`", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const getMedia = createRoute({
  method: "get",
  path: "/media/{token}",
  tags,
  summary: "Archived audio by a media link: like `/api/tasks/{id}/audio`, without a session",
  request: {
    params: z.object({ token: z.string().openapi({ param: { name: "token", in: "path" } }) }),
    headers: rangeHeaders,
  },
  responses: {
    200: binary("The whole file"),
    206: binary("The requested range"),
    304: { description: "`If-None-Match` names this file" },
    403: { description: "`media_link_invalid`: altered or expired", content: json(errorBody) },
    404: { description: "`not_archived` (any more)", content: json(errorBody) },
    416: { description: "Range not satisfiable" },
  },
});

export const getArchiveUsage = createRoute({
  method: "get",
  path: "/api/archive",
  tags: ["Tasks"],
  security: [{ session: [] }],
  summary: "The caller's archived results: bytes held, the quota and the retention period",
  responses: {
    200: { description: "Usage and limits", content: json(archiveUsageSchema) },
    ...sessionErrors,
  },
});
