import { createRoute } from "@hono/zod-openapi";
import { archiveUsageSchema } from "../../schemas/archive.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

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
