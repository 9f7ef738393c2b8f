import { z } from "@hono/zod-openapi";

// NUL and unpaired UTF-16 surrogates: Postgres cannot store or compare them (lib/storable.ts).
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;

/** Whether Postgres can hold `text` (no NUL, no unpaired surrogate): what a user types must be. */
export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

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
