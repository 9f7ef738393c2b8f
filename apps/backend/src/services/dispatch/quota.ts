import { readQuota, type QuotaReading } from "@overture/core/schemas";
import type { Account } from "../tasks/record.ts";
import type { DispatchDeps } from "./deps.ts";

/**
 * The account's quota as the platform reports it (spec 4.5), asked with the proxy token of the
 * access token `tokenId`, minted or refreshed as needed. A 429 whose `Retry-After` is longer than
 * the platform client waits itself (backend.ts) comes back as the error, so that the caller holds
 * the account's queue that long (submit.ts `isQuotaCheckHold`) instead of sleeping it out.
 */
export async function askQuota(
  deps: Pick<DispatchDeps, "proxyTokens" | "platform">,
  account: Account,
  tokenId: number,
): Promise<QuotaReading> {
  const body = await deps.proxyTokens.withProxyToken(
    account.userId,
    account.namespace,
    tokenId,
    (token) => deps.platform.getAvailableQuota(token),
  );
  return readQuota(body);
}

/** Free quota; Infinity when the platform's answer does not say (the submit will). */
export function freeQuota(reading: QuotaReading): number {
  return reading.available ?? Number.POSITIVE_INFINITY;
}
