import { createRoute, z } from "@hono/zod-openapi";
import { peaksSchema } from "../../schemas/archive.ts";
import { errorBody } from "../../schemas/common.ts";
import { shareCreateSchema, shareListSchema, shareSchema } from "../../schemas/share.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Sharing"];
const security = [{ session: [] }];

const idParams = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, format: "uuid" }),
});
const tokenParams = z.object({
  token: z.string().openapi({ param: { name: "token", in: "path" } }),
});
const publicErrors = {
  404: { description: "`share_not_found`", content: json(errorBody) },
  410: { description: "`share_gone`: revoked or expired", content: json(errorBody) },
  429: { description: "`rate_limited`, with `Retry-After`", content: json(errorBody) },
} as const;

export const createShare = createRoute({
  method: "post",
  path: "/api/tasks/{id}/shares",
  tags,
  security,
  summary: "Create a public link to one archived track",
  request: { params: idParams, body: { required: false, content: json(shareCreateSchema) } },
  responses: {
    201: { description: "The link; its `url` is shown only now", content: json(shareSchema) },
    400: { description: "`invalid_request`", content: json(errorBody) },
    404: { description: "`task_not_found` or `not_archived`", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const listShares = createRoute({
  method: "get",
  path: "/api/tasks/{id}/shares",
  tags,
  security,
  summary: "The track's share links, newest first (without their URLs)",
  request: { params: idParams },
  responses: {
    200: { description: "The links", content: json(shareListSchema) },
    404: { description: "`task_not_found`", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const revokeShare = createRoute({
  method: "delete",
  path: "/api/shares/{id}",
  tags,
  security,
  summary: "Revoke a share link: its page and audio answer 410 from now on",
  request: { params: idParams },
  responses: {
    200: { description: "The link, revoked", content: json(shareSchema) },
    404: { description: "`share_not_found`", content: json(errorBody) },
    ...sessionErrors,
  },
});

export const sharePage = createRoute({
  method: "get",
  path: "/s/{token}",
  tags,
  summary: "The public page of a shared track: title, waveform, player, download",
  request: { params: tokenParams },
  responses: {
    200: { description: "The page", content: { "text/html": { schema: z.string() } } },
    ...publicErrors,
  },
});

export const shareAudio = createRoute({
  method: "get",
  path: "/s/{token}/audio",
  tags,
  summary: "A shared track's MP3, with one byte range (`download=1`: as an attachment)",
  request: {
    params: tokenParams,
    query: z.object({ download: z.enum(["0", "1"]).optional() }),
    headers: z.object({
      range: z.string().optional(),
      "if-range": z.string().optional(),
      "if-none-match": z.string().optional(),
    }),
  },
  responses: {
    200: {
      description: "The whole file",
      content: { "audio/mpeg": { schema: z.string().openapi({ format: "binary" }) } },
    },
    206: { description: "The requested range" },
    304: { description: "`If-None-Match` names this file" },
    416: { description: "Range not satisfiable" },
    ...publicErrors,
  },
});

export const sharePeaks = createRoute({
  method: "get",
  path: "/s/{token}/peaks",
  tags,
  summary: "A shared track's waveform",
  request: { params: tokenParams },
  responses: {
    200: { description: "The waveform", content: json(peaksSchema) },
    ...publicErrors,
  },
});
