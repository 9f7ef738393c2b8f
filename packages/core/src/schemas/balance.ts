import { z } from "zod";
import { numberish } from "./numbers.ts";

/** An amount of money: a number or numeric string; `null` is read as absent. */
const amount = numberish.nullish().transform((value) => value ?? undefined);

/**
 * Body of `GET {api_url}/v1/tokens/packages/balance`, the account's credit (not in the spec; seen
 * live as `{ total_amount, used_amount, balance, details: [{ ident, name, amount, balance }] }`).
 * Every field is optional, amounts accept numeric strings and `null`, unknown fields are kept.
 * The balance is money; the concurrency quota is a separate endpoint (`quotaSchema`).
 *
 * @example
 * ```ts
 * balanceSchema.parse({ total_amount: 100, used_amount: 12.5, balance: 87.5, details: [] });
 * ```
 */
export const balanceSchema = z.looseObject({
  total_amount: amount,
  used_amount: amount,
  balance: amount,
  details: z
    .array(
      z.looseObject({
        ident: z.string().optional(),
        name: z.string().optional(),
        amount,
        balance: amount,
      }),
    )
    .nullish()
    .transform((details) => details ?? undefined),
});

/**
 * Parsed {@link balanceSchema}.
 *
 * @example
 * ```ts
 * const { balance }: Balance = await client.getBalance(apiToken);
 * ```
 *
 * @useDeclaredType
 */
export type Balance = z.infer<typeof balanceSchema>;
