import type { CallbackEvent } from "../schemas/index.ts";
import { secretList } from "../webhook/checks.ts";
import type {
  HashSha256,
  HmacSha256Hex,
  SignatureDiagnosis,
  VerifyWebhookOptions,
  WebhookVerified,
} from "../webhook/index.ts";

/**
 * Default largest body a receiver reads: 1 MiB. A callback event (spec 2.7) is a few hundred
 * bytes; the limit only keeps a flood of large requests from filling memory.
 *
 * @example
 * ```ts
 * createWebhookHandler({ secrets, onEvent, maxBodyBytes: DEFAULT_MAX_BODY_BYTES / 4 });
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * What a verified, valid delivery hands to `onEvent` beside the event.
 *
 * @example
 * ```ts
 * onEvent: (event, { verification }) => log.info({ signedAt: verification.timestamp }, event.status)
 * ```
 */
export interface WebhookEventContext {
  readonly verification: WebhookVerified;
  /** The raw body, exactly as received and verified. */
  readonly body: Uint8Array;
}

/**
 * A delivery the receiver refused, for the application's log; never holds a secret. The sender
 * gets only `code` and a generic message: `message`, `diagnoses` and `error` are the receiver's.
 *
 * @example
 * ```ts
 * onRejected: ({ status, code, message }) => log.warn({ status, code }, message)
 * ```
 */
export interface WebhookRejection {
  readonly status: number;
  readonly code: string;
  /** What went wrong, in full (how many secrets were tried, which former one matched, the
   * tolerance): for the receiver's log, never sent back. */
  readonly message: string;
  /** The spec 7 causes of a signature mismatch that could be confirmed. */
  readonly diagnoses?: readonly SignatureDiagnosis[];
  /** What `onEvent` or `seen` threw (`WEBHOOK_HANDLER_FAILED`), or what broke the receiver
   * itself (`WEBHOOK_RECEIVER_FAILED`). */
  readonly error?: unknown;
}

/**
 * The secret or secrets a receiver verifies with, several during a rotation (tried in order).
 * `undefined` is allowed in the type so an environment variable can be passed as it is: a
 * receiver created without a secret, or with an empty or blank one, throws a TypeError at once.
 *
 * @example
 * ```ts
 * const secrets: WebhookSecrets = [process.env.WEBHOOK_SECRET, process.env.WEBHOOK_SECRET_NEXT];
 * ```
 */
export type WebhookSecrets = string | undefined | readonly (string | undefined)[];

/**
 * Settings of a webhook receiver: the verification settings of `verifyWebhook` (secrets for
 * rotation, `formerSecrets`, the timestamp window, diagnostics, the HMAC) and what to do with an
 * event. Checked when the receiver is created: a missing, empty or blank secret, or `hash` with
 * `hmac`, throws a TypeError there, never on a delivery.
 *
 * @example
 * ```ts
 * const options: WebhookReceiverOptions = {
 *   secrets: [process.env.WEBHOOK_SECRET, process.env.WEBHOOK_SECRET_NEXT],
 *   onEvent: async (event) => { await db.saveEvent(event); },
 *   seen: (eventId) => db.hasEvent(eventId),
 * };
 * ```
 */
export interface WebhookReceiverOptions extends Omit<
  VerifyWebhookOptions,
  "body" | "url" | "headers" | "secrets"
> {
  /** The current secret, or several during a rotation; see {@link WebhookSecrets}. */
  readonly secrets: WebhookSecrets;
  /** Receives each verified event (spec 2.7), typed and validated, once per `event_id` when
   * `seen` is given. Throwing answers 500, so the platform delivers it again. */
  readonly onEvent: (event: CallbackEvent, context: WebhookEventContext) => void | Promise<void>;
  /** Whether `onEvent` already handled this `event_id` (spec 6 rule 3: the platform re-delivers
   * an event with the same id). `true` answers 200 without calling `onEvent`. It only reads:
   * record the id in `onEvent`, with the event's effect, so a failed `onEvent` is retried. */
  readonly seen?: ((eventId: string) => boolean | Promise<boolean>) | undefined;
  /** Told about every refused delivery, for logs, with the full diagnosis. */
  readonly onRejected?: ((rejection: WebhookRejection) => void) | undefined;
  /** Largest body read, in bytes; default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number | undefined;
  /** HMAC implementation; default WebCrypto. */
  readonly hmac?: HmacSha256Hex | undefined;
  /** A one-shot SHA-256 such as `node:crypto`'s `hash` (Node >= 20.12): deliveries are then
   * verified by `verifyWebhookSync({ hash })`, the fastest verifier, with no promise per HMAC.
   * Give `hash` or `hmac`, not both (a TypeError). */
  readonly hash?: HashSha256 | undefined;
}

/**
 * Checks a receiver's settings (see {@link WebhookReceiverOptions}) and returns them with the
 * secrets as a checked list. `receiver` names the factory in the error.
 */
export function checkReceiverOptions(
  options: WebhookReceiverOptions,
  receiver: string,
): WebhookReceiverOptions & { readonly secrets: readonly string[] } {
  // Options from JavaScript can be anything: a missing object is the same mistake.
  const given = options as Partial<WebhookReceiverOptions> | undefined;
  let secrets: readonly string[];
  try {
    secrets = secretList(given?.secrets);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${receiver} needs a webhook secret: ${reason}`, { cause: error });
  }
  if (options.hash !== undefined && options.hmac !== undefined) {
    throw new TypeError(`${receiver} takes \`hash\` or \`hmac\`, not both`);
  }
  if (typeof options.onEvent !== "function") {
    throw new TypeError(`${receiver} needs an onEvent function to hand the events to`);
  }
  return { ...options, secrets };
}
