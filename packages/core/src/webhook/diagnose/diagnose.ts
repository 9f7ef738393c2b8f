import type { CheckedDelivery } from "../checks.ts";
import type { SignatureDiagnosis } from "../codes.ts";
import { constantTimeEqual } from "../compare.ts";
import type { HmacSha256Hex, HmacSha256HexSync } from "../hmac.ts";
import type { VerifyWebhookOptions } from "../types.ts";
import { mismatchCandidates, type MismatchContext } from "./candidates.ts";

/** The {@link MismatchContext} of a checked delivery whose signature matched no secret. */
export function mismatchContext(
  input: VerifyWebhookOptions,
  checked: CheckedDelivery,
  query: string,
): MismatchContext {
  return {
    timestamp: checked.timestamp,
    signature: checked.signature,
    body: checked.body,
    query,
    secrets: checked.secrets,
    formerSecrets: input.formerSecrets ?? [],
    alternateUrls: input.alternateUrls ?? [],
  };
}

/**
 * Looks for the spec 7 cause of a signature mismatch by trying each single change of
 * {@link mismatchCandidates}: at most one diagnosis per code, the first match of each.
 */
export async function diagnoseMismatch(
  ctx: MismatchContext,
  hmac: HmacSha256Hex,
): Promise<SignatureDiagnosis[]> {
  const found: SignatureDiagnosis[] = [];
  for (const { code, message, secret, signed } of mismatchCandidates(ctx)) {
    if (found.some((diagnosis) => diagnosis.code === code)) continue;
    if (constantTimeEqual(await hmac(secret, signed), ctx.signature)) found.push({ code, message });
  }
  return found;
}

/** {@link diagnoseMismatch} with a synchronous HMAC, for `verifyWebhookSync`. */
export function diagnoseMismatchSync(
  ctx: MismatchContext,
  hmac: HmacSha256HexSync,
): SignatureDiagnosis[] {
  const found: SignatureDiagnosis[] = [];
  for (const { code, message, secret, signed } of mismatchCandidates(ctx)) {
    if (found.some((diagnosis) => diagnosis.code === code)) continue;
    if (constantTimeEqual(hmac(secret, signed), ctx.signature)) found.push({ code, message });
  }
  return found;
}
