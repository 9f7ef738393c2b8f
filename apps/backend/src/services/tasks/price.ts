import { numberish } from "@overture/core/schemas";

/**
 * A task's `price` as the platform or a relay sends it: a finite number, or a string holding one
 * (money often travels as text to keep its decimals), read by core's `numberish`, the rule every
 * number-as-string of the platform follows ("0.12", " 3 ", "1.5e-2"). Anything else (an empty or
 * non-numeric string, NaN, Infinity, "1e999", an object) is undefined: no price rather than a
 * wrong one.
 *
 * @example
 * priceOf("0.12"); // 0.12
 * priceOf("abc"); // undefined
 */
export function priceOf(value: unknown): number | undefined {
  const parsed = numberish.safeParse(value);
  return parsed.success && Number.isFinite(parsed.data) ? parsed.data : undefined;
}
