import { z } from "zod";
import { numberish } from "./numbers.ts";

/**
 * Body of `GET {api_url}/v1/tasks/available-quota` (spec 4.7: body not shown). Seen as
 * `{ available, max_concurrency }`; a bare number is read as `{ available: n }`. Numbers accept
 * numeric strings; unknown fields are kept.
 *
 * @example
 * ```ts
 * quotaSchema.parse({ available: 1, max_concurrency: 2 });
 * quotaSchema.parse(3); // { available: 3 }
 * ```
 */
export const quotaSchema = z.union([
  z.looseObject({
    available: numberish.optional(),
    max_concurrency: numberish.optional(),
  }),
  numberish.transform((available) => ({ available })),
]);

/**
 * Parsed {@link quotaSchema} (spec 4.7, 8).
 *
 * @example
 * ```ts
 * const quota: Quota = await client.getAvailableQuota(apiToken);
 * ```
 *
 * @useDeclaredType
 */
export type Quota = z.infer<typeof quotaSchema>;

/**
 * Quota read by {@link readQuota} (spec 8: concurrency quota); a field is `undefined` when the
 * body does not say.
 *
 * @example
 * ```ts
 * const { available = 0 }: QuotaReading = readQuota(body);
 * ```
 */
export interface QuotaReading {
  available?: number;
  maxConcurrency?: number;
}

/**
 * Reads the available concurrency quota (spec 8: check it before submitting) from a quota body
 * of any accepted shape (see {@link quotaSchema}). Never throws: an unreadable body gives `{}`
 * (unknown quota).
 *
 * @example
 * ```ts
 * readQuota({ available: 0, max_concurrency: 2 }); // { available: 0, maxConcurrency: 2 }
 * readQuota("oops");                                 // {}
 * ```
 */
export function readQuota(body: unknown): QuotaReading {
  const parsed = quotaSchema.safeParse(body);
  if (!parsed.success) return {};
  const reading: QuotaReading = {};
  if (parsed.data.available !== undefined) reading.available = parsed.data.available;
  if ("max_concurrency" in parsed.data && typeof parsed.data.max_concurrency === "number")
    reading.maxConcurrency = parsed.data.max_concurrency;
  return reading;
}
