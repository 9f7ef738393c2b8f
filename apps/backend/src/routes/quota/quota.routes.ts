import { createRoute, z } from "@hono/zod-openapi";
import { errorBody, sessionErrors } from "../shared-schemas.ts";

const tags = ["Tasks"];
const security = [{ session: [] }];
const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });

export const getQuota = createRoute({
  method: "get",
  path: "/api/quota",
  tags,
  security,
  summary: "Free concurrency quota of the selected account (spec 4.7) and the local queue length",
  responses: {
    200: {
      description: "Quota",
      content: json(
        z
          .object({
            available: z.number().nullable(),
            max_concurrency: z.number().nullable(),
            queued: z.number().int(),
            namespace: z.string(),
          })
          .openapi("Quota"),
      ),
    },
    400: { description: "`no_token_selected`", content: json(errorBody) },
    ...sessionErrors,
    503: { description: "`platform_unavailable`", content: json(errorBody) },
  },
});
