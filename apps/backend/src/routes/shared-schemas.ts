import type { z } from "@hono/zod-openapi";
import { errorBody } from "../schemas/common.ts";

/** A JSON response body of `schema`, as route definitions write it. */
export const json = <T extends z.ZodType>(schema: T) => ({ "application/json": { schema } });

/** Errors any session-protected route can answer. */
export const sessionErrors = {
  401: {
    description:
      "`unauthenticated` (no, unknown, expired or revoked session) or `reauthentication_required`",
    content: json(errorBody),
  },
} as const;
