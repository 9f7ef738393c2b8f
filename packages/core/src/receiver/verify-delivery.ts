import type { CallbackEventBody } from "../schemas/index.ts";
import {
  readWebhookBody,
  verifyWebhook,
  type HmacSha256Hex,
  type VerifyWebhookOptions,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookVerified,
} from "../webhook/index.ts";
import { verifyWebhookSync, type HashSha256 } from "../webhook/sync/index.ts";
import { parseCallbackEvent, type CallbackEvent } from "./event.ts";
import type { WebhookRejection } from "./options.ts";

/** What {@link verifyDelivery} needs: the request as received and the verification settings. */
export interface DeliveryInput extends Omit<VerifyWebhookOptions, "secrets"> {
  readonly secrets: readonly string[];
  readonly body: WebhookBody;
  readonly url: string | URL;
  readonly headers: WebhookHeaders;
  readonly hmac?: HmacSha256Hex | undefined;
  readonly hash?: HashSha256 | undefined;
}

/** A delivery that passed every check, or the first refusal (as a receiver answers it). */
export type DeliveryReading =
  | { readonly ok: true; readonly verification: WebhookVerified; readonly event: CallbackEvent }
  | {
      readonly ok: true;
      readonly verification: WebhookVerified;
      readonly unknownStatus: CallbackEventBody;
    }
  | { readonly ok: false; readonly rejection: WebhookRejection };

/**
 * The checks every receiver and `constructCallbackEvent` run, in order: the signature over the
 * raw bytes with the timestamp window and every secret (401), strict UTF-8 JSON (400), the event
 * of spec 2.7 (400). A status the spec does not list comes back as `unknownStatus`.
 */
export async function verifyDelivery(input: DeliveryInput): Promise<DeliveryReading> {
  const verification = await verify(input);
  if (!verification.ok) {
    const { code, message, diagnoses, header, skewMs } = verification;
    const details = {
      ...(diagnoses ? { diagnoses } : {}),
      ...(header !== undefined ? { header } : {}),
      ...(skewMs !== undefined ? { skewMs } : {}),
    };
    return { ok: false, rejection: { status: 401, code, message, ...details } };
  }
  const read = readWebhookBody(input.body);
  if (!read.ok) {
    return { ok: false, rejection: { status: 400, code: read.code, message: read.message } };
  }
  const parsed = parseCallbackEvent(read.json);
  if (!parsed.ok) {
    return { ok: false, rejection: { status: 400, code: parsed.code, message: parsed.message } };
  }
  return { ...parsed, verification };
}

/** Verified with the HMAC given: `hash` synchronously, else `hmac` or WebCrypto. */
function verify(input: DeliveryInput) {
  const { hash, hmac, ...options } = input;
  if (hash === undefined) return verifyWebhook({ ...options, hmac });
  return verifyWebhookSync({ ...options, hash });
}
