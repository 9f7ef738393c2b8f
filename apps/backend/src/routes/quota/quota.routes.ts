import { createRoute } from "@hono/zod-openapi";
import { errorBody } from "../../schemas/common.ts";
import { quotaSchema } from "../../schemas/task.ts";
import { json, sessionErrors } from "../shared-schemas.ts";

const tags = ["Tasks"];
const security = [{ session: [] }];

export const getQuota = createRoute({
  method: "get",
  path: "/api/quota",
  tags,
  security,
  summary: "Free concurrency quota of the selected account (spec 4.7) and the local queue length",
  responses: {
    200: {
      description: "Quota",
      content: json(quotaSchema),
    },
    400: { description: "`no_token_selected`", content: json(errorBody) },
    ...sessionErrors,
    503: { description: "`platform_unavailable`", content: json(errorBody) },
  },
});
