import { z } from "zod";

/**
 * A JSON number, or a string holding a plain decimal number (`"7200"`, `" 1800 "`, `"0.5"`),
 * converted to a number. Some gateways serialise numbers as strings; a lifetime or a usage count
 * arriving as `"7200"` carries the same meaning, so Overture accepts it rather than failing the
 * whole response (spec 2.2, 2.5, 2.6 list these fields as numbers). Hex, `""`, `"NaN"` and
 * `"Infinity"` are rejected.
 *
 * @example
 * ```ts
 * numberish.parse("7200"); // 7200
 * numberish.parse(0.5);    // 0.5
 * ```
 */
export const numberish = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/, "expected a number")
    .transform(Number),
]);

/**
 * A lifetime in seconds (`expires_in`, spec 2.2, 2.5): a non-negative number or numeric string
 * (see {@link numberish}).
 *
 * @example
 * ```ts
 * secondsSchema.parse("1800"); // 1800
 * ```
 */
export const secondsSchema = numberish.pipe(z.number().nonnegative());
