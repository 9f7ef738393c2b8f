import { balanceSchema, type Balance } from "../schemas/index.ts";
import { bearer, endpoint, sendPlatformRequest } from "../transport/index.ts";
import type { TaskEndpointOptions } from "./tasks.ts";

/**
 * The account's credit: `GET {api_url}/v1/tokens/packages/balance` with the same bearer token as
 * the task endpoints. Not in the spec; the live platform answers `{ total_amount, used_amount,
 * balance, details }` (see {@link balanceSchema}). The concurrency quota is `getAvailableQuota`.
 *
 * @example
 * ```ts
 * const { balance } = await getBalance({ apiUrl, apiToken });
 * ```
 */
export function getBalance(options: TaskEndpointOptions): Promise<Balance> {
  return sendPlatformRequest(
    {
      method: "GET",
      url: endpoint(options.apiUrl, "/v1/tokens/packages/balance"),
      headers: bearer(options.apiToken),
      schema: balanceSchema,
    },
    options,
  );
}
