import { signingMessage } from "./body.ts";
import { queryOf } from "./canonical-query.ts";
import { checkDelivery, malformedSignature, mismatch, signedReadings, verified } from "./checks.ts";
import { constantTimeEqual } from "./compare.ts";
import { diagnoseMismatch, mismatchContext } from "./diagnose/diagnose.ts";
import { webCryptoHmacSha256Hex } from "./hmac.ts";
import type { VerifyWebhookInput, WebhookVerification } from "./types.ts";

/**
 * Verifies a webhook delivery (spec 4.9, 5.7): both headers present, a 13-digit timestamp within
 * `toleranceMs` of now in either direction, then the HMAC-SHA256 of the signing text under each
 * secret, compared in constant time. The raw query reading is tried first (one HMAC in the common
 * case); the form-decoded reading is tried only when the query contains `%` or `+`, and the
 * percent-decoded one (`+` kept) only when it contains both. `X-Signature`
 * must be 64 lowercase hex characters: uppercase hex is rejected, as spec 4.8 says lowercase.
 * On a mismatch, `diagnoses` names the spec 7 cause when one can be confirmed.
 *
 * For a synchronous HMAC such as `node:crypto`'s, `verifyWebhookSync` gives the same outcome
 * without a promise.
 *
 * @returns a promise of the outcome; it rejects with a TypeError when no secret is given or one
 *   is empty, and with a RangeError for a negative tolerance (configuration errors, not requests).
 *
 * @example
 * ```ts
 * const body = await c.req.text();
 * const result = await verifyWebhook({ body, url: c.req.url, headers: c.req.raw.headers, secrets: [secret] });
 * if (!result.ok) return c.json({ error: result.code, message: result.message }, 401);
 * ```
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<WebhookVerification> {
  const checked = checkDelivery(input);
  if (checked.ok === false) return checked;
  const hmac = input.hmac ?? webCryptoHmacSha256Hex;
  const query = queryOf(input.url);
  for (const { reading, canonical } of signedReadings(query)) {
    const message = signingMessage(checked.timestamp, canonical, checked.body);
    for (const [index, secret] of checked.secrets.entries()) {
      const mac = await hmac(secret, message);
      if (constantTimeEqual(mac, checked.signature)) return verified(checked, index, reading);
    }
  }
  const malformed = malformedSignature(checked.signature);
  if (malformed) return malformed;
  const diagnoses =
    input.diagnose === false
      ? []
      : await diagnoseMismatch(mismatchContext(input, checked, query), hmac);
  return mismatch(checked.secrets.length, diagnoses);
}
