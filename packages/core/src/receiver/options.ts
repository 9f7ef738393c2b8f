import type { CallbackEventBody } from "../schemas/index.ts";
import { TASK_STATUSES, type TaskStatus } from "../task/index.ts";
import { secretList } from "../webhook/checks.ts";
import type {
  HmacSha256Hex,
  SignatureDiagnosis,
  VerifyWebhookOptions,
  WebhookVerified,
} from "../webhook/index.ts";
import type { HashSha256 } from "../webhook/sync/index.ts";
import type { CallbackEvent, CallbackEventOf } from "./event.ts";

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
  /** `WEBHOOK_MISSING_HEADER`: the first missing header. */
  readonly header?: string;
  /** `WEBHOOK_TIMESTAMP_OUT_OF_RANGE`: timestamp − now in ms (negative: stale). */
  readonly skewMs?: number;
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
 * One function for every event: it narrows the {@link CallbackEvent} itself (`switch
 * (event.status)`). Throwing answers 500, so the platform delivers the event again.
 *
 * @example
 * ```ts
 * const onEvent: CallbackEventHandler = async (event) => {
 *   if (event.status === "success") await archive(event.output.file_url);
 * };
 * ```
 */
export type CallbackEventHandler = (
  event: CallbackEvent,
  context: WebhookEventContext,
) => void | Promise<void>;

/**
 * One function per status, each given its status's event type (as Octokit's handlers are per
 * event name). A status without a function is acknowledged and left alone; a key that is not a
 * status of spec 2.7 is a TypeError when the receiver is created, so a typo is never silent.
 *
 * @example
 * ```ts
 * const onEvent: CallbackEventHandlers = {
 *   success: (event) => archive(event.output.file_url), // string
 *   failure: (event) => log.warn(taskErrorMessage(event)),
 * };
 * ```
 */
export type CallbackEventHandlers = {
  readonly [S in TaskStatus]?:
    ((event: CallbackEventOf<S>, context: WebhookEventContext) => void | Promise<void>) | undefined;
};

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
  /** Receives each verified event (spec 2.7), typed by its status and validated, once per
   * `event_id` when `seen` is given: one function ({@link CallbackEventHandler}), or one per
   * status ({@link CallbackEventHandlers}). Throwing answers 500, so the platform delivers it
   * again. */
  readonly onEvent: CallbackEventHandler | CallbackEventHandlers;
  /** Receives a verified event whose status is none of spec 2.7's five, in its wire shape.
   * Without it such an event is refused with 400 `WEBHOOK_EVENT_INVALID` (and `onRejected`),
   * since no typed handler could take it. */
  readonly onUnknownStatus?:
    ((event: CallbackEventBody, context: WebhookEventContext) => void | Promise<void>) | undefined;
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
  checkHandlers(options.onEvent, receiver);
  return { ...options, secrets };
}

/** `onEvent` is a function, or an object of functions keyed by the statuses of spec 2.7. */
function checkHandlers(onEvent: unknown, receiver: string): void {
  if (typeof onEvent === "function") return;
  if (typeof onEvent !== "object" || onEvent === null) {
    throw new TypeError(`${receiver} needs onEvent: a function, or one function per status`);
  }
  for (const [key, handler] of Object.entries(onEvent)) {
    if (!(TASK_STATUSES as readonly string[]).includes(key)) {
      throw new TypeError(
        `${receiver}'s onEvent has a handler for "${key}", which is not a status of spec 2.7 (${TASK_STATUSES.join(", ")})`,
      );
    }
    if (handler !== undefined && typeof handler !== "function") {
      throw new TypeError(`${receiver}'s onEvent.${key} is not a function`);
    }
  }
}
