import type { SignatureDiagnosis, VerifyWebhookOptions } from "../webhook/index.ts";
import { secretList } from "../webhook/checks.ts";
import { TASK_STATUSES } from "../task/index.ts";
import { WEBHOOK_EVENT_INVALID } from "./codes.ts";
import type { CallbackEvent } from "./event.ts";
import type { WebhookRejection, WebhookSecrets } from "./options.ts";
import { verifyDelivery, type DeliveryInput } from "./verify-delivery.ts";

/**
 * A delivery `constructCallbackEvent` refused, with the same `code` a receiver's `onRejected`
 * and `verifyWebhook`'s result carry (`WEBHOOK_SIGNATURE_MISMATCH`, `WEBHOOK_BODY_NOT_JSON`,
 * `WEBHOOK_EVENT_INVALID`, …) and the `status` a receiver answers (401 or 400). `message` is the
 * full diagnosis, for the receiver's log: answer the sender with the code only.
 *
 * @example
 * ```ts
 * try {
 *   const event = await constructCallbackEvent({ body, url, headers, secrets });
 * } catch (error) {
 *   if (!(error instanceof WebhookVerificationError)) throw error;
 *   log.warn({ code: error.code, diagnoses: error.diagnoses }, error.message);
 *   return new Response(JSON.stringify({ error: error.code }), { status: error.status });
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  /** The stable code, as `verifyWebhook`'s result or a receiver's rejection has it. */
  readonly code: string;
  /** The answer a receiver gives: 401 (verification), 400 (body or event). */
  readonly status: number;
  /** The spec 7 causes of a signature mismatch that could be confirmed. */
  readonly diagnoses?: readonly SignatureDiagnosis[];
  /** `WEBHOOK_MISSING_HEADER`: the first missing header. */
  readonly header?: string;
  /** `WEBHOOK_TIMESTAMP_OUT_OF_RANGE`: timestamp − now in ms (negative: stale). */
  readonly skewMs?: number;

  constructor(rejection: WebhookRejection, options?: ErrorOptions) {
    super(rejection.message, options);
    this.code = rejection.code;
    this.status = rejection.status;
    if (rejection.diagnoses) this.diagnoses = rejection.diagnoses;
    if (rejection.header !== undefined) this.header = rejection.header;
    if (rejection.skewMs !== undefined) this.skewMs = rejection.skewMs;
  }
}

/**
 * Input of {@link constructCallbackEvent}: the request as received (raw body, the URL called,
 * the headers) and the verification settings of `verifyWebhook`, with `hmac` or node:crypto's
 * `hash` as a receiver takes them.
 *
 * @example
 * ```ts
 * const input: ConstructCallbackEventInput = { body, url: req.url, headers: req.headers, secrets: secret };
 * ```
 */
export interface ConstructCallbackEventInput extends Omit<DeliveryInput, "secrets"> {
  /** The current secret, or several during a rotation; a missing, empty or blank one throws a
   * TypeError (a configuration error, not the request's). */
  readonly secrets: WebhookSecrets;
}

/**
 * Verifies a delivery and returns its typed {@link CallbackEvent}, or throws: the throw-style
 * entry, as Stripe's `constructEvent` is. It runs a receiver's checks in a receiver's order —
 * the signature over the raw bytes with the timestamp window and every secret, strict UTF-8
 * JSON, the fields of the event's status (a success needs its result link) — and throws a
 * {@link WebhookVerificationError} with the code of the first that fails. A status the spec does
 * not list is `WEBHOOK_EVENT_INVALID` here: no typed event can hold it (`verifyWebhook` and
 * `callbackEventSchema` of `@overture/core/schemas` read such a body).
 *
 * @throws WebhookVerificationError for the delivery; TypeError for the settings (no secret).
 *
 * @example
 * ```ts
 * const body = new Uint8Array(await request.arrayBuffer());
 * const event = await constructCallbackEvent({ body, url: request.url, headers: request.headers, secrets });
 * if (event.status === "success") await archive(event.output.file_url); // a string
 * ```
 */
export async function constructCallbackEvent(
  input: ConstructCallbackEventInput,
): Promise<CallbackEvent> {
  const secrets = secretList(input.secrets);
  if (input.hash !== undefined && input.hmac !== undefined) {
    throw new TypeError("constructCallbackEvent takes `hash` or `hmac`, not both");
  }
  const read = await verifyDelivery({ ...input, secrets } satisfies VerifyWebhookOptions);
  if (!read.ok) throw new WebhookVerificationError(read.rejection);
  if ("event" in read) return read.event;
  const message = `The event's status ${JSON.stringify(read.unknownStatus.status)} is none of spec 2.7's (${TASK_STATUSES.join(", ")})`;
  throw new WebhookVerificationError({ status: 400, code: WEBHOOK_EVENT_INVALID, message });
}
