import { z } from "@hono/zod-openapi";

/** An ISO 8601 timestamp, as every date of the API is written. */
export const isoTime = z.string().openapi({ format: "date-time" });

/**
 * The error body every route uses: `{ error, message }` plus extra fields when useful. `error` is
 * one of the codes in `error-codes.ts`, or a lower-cased platform or webhook code.
 */
export const errorBody = z
  .looseObject({
    error: z.string().openapi({ example: "reauthentication_required" }),
    message: z
      .string()
      .openapi({ example: "The platform authorization has ended; sign in again to continue." }),
  })
  .openapi("Error");
