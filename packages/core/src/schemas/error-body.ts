import { z } from "zod";

/**
 * Error bodies the platform (or a gateway in front of it) may answer with. The spec does not show
 * the format (spec 7), so every shape Overture recognises parses: `{ error, message }` (the
 * emulator), RFC 6749 `{ error, error_description }`, `{ message }`, the live `{ error_message }`,
 * `{ error: { code, message } }` and `{ detail }`. All fields are optional; unknown fields are
 * kept.
 *
 * @example
 * ```ts
 * platformErrorBodySchema.parse({ error: "quota_exceeded", message: "Concurrency quota is full" });
 * ```
 */
export const platformErrorBodySchema = z.looseObject({
  error: z
    .union([
      z.string(),
      z.looseObject({
        code: z.union([z.string(), z.number()]).optional(),
        message: z.string().optional(),
      }),
    ])
    .optional(),
  message: z.string().optional(),
  /** The live platform's field for the text (`必传参数: prompt`, docs/platform-facts.md). */
  error_message: z.string().optional(),
  error_description: z.string().optional(),
  detail: z.unknown().optional(),
});

/**
 * Parsed {@link platformErrorBodySchema} (spec 7: format not shown).
 *
 * @example
 * ```ts
 * const body: PlatformErrorBody = { error: "rate_limited", message: "Slow down" };
 * ```
 *
 * @useDeclaredType
 */
export type PlatformErrorBody = z.infer<typeof platformErrorBodySchema>;
