import type { ResolvedOptions } from "../options.ts";
import type { EmulatorState } from "../state/store.ts";
import { priceOf, requestedSeconds } from "./outcome.ts";

/**
 * Credit of every account, in CNY: an emulator figure (the live platform sells credit packages).
 * The emulator reports what is used but never refuses a task for an empty balance.
 */
export const ACCOUNT_CREDIT_CNY = 100;

const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * `GET {api_url}/v1/tokens/packages/balance` as the live platform answers it (docs/platform-facts.md):
 * one package holding {@link ACCOUNT_CREDIT_CNY}, used by the account's finished tasks at their
 * price (`priceOf` their requested seconds when the profile does not price tasks).
 */
export function balanceView(options: ResolvedOptions, state: EmulatorState, namespace: string) {
  let used = 0;
  for (const task of state.tasks.values())
    if (task.namespace === namespace && task.status === "success")
      used += task.price ?? priceOf(requestedSeconds(options, task));
  const balance = Math.max(0, cents(ACCOUNT_CREDIT_CNY - used));
  return {
    total_amount: ACCOUNT_CREDIT_CNY,
    used_amount: cents(used),
    balance,
    details: [
      { ident: "serverless-api", name: "Serverless API", amount: ACCOUNT_CREDIT_CNY, balance },
    ],
  };
}
