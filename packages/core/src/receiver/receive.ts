import { TASK_STATUSES } from "../task/index.ts";
import {
  WEBHOOK_MALFORMED_TIMESTAMP,
  WEBHOOK_MISSING_HEADER,
  WEBHOOK_SIGNATURE_MISMATCH,
  WEBHOOK_TIMESTAMP_OUT_OF_RANGE,
  type WebhookHeaders,
} from "../webhook/index.ts";
import {
  WEBHOOK_BODY_TOO_LARGE,
  WEBHOOK_EVENT_INVALID,
  WEBHOOK_HANDLER_FAILED,
  WEBHOOK_METHOD_NOT_ALLOWED,
  WEBHOOK_RECEIVER_FAILED,
} from "./codes.ts";
import type { CallbackEvent } from "./event.ts";
import {
  DEFAULT_MAX_BODY_BYTES,
  checkReceiverOptions,
  type CallbackEventHandler,
  type CallbackEventHandlers,
  type WebhookEventContext,
  type WebhookReceiverOptions,
  type WebhookRejection,
} from "./options.ts";
import { verifyDelivery } from "./verify-delivery.ts";

/** Receiver settings as {@link checkReceiverOptions} returns them. */
export type CheckedReceiverOptions = ReturnType<typeof checkReceiverOptions>;

/**
 * A delivery as any server framework holds it: the method, the URL as the platform called it
 * (its query is signed as given), the headers, and the raw body bytes.
 *
 * @example
 * ```ts
 * const delivery: WebhookDelivery = { method: "POST", url: req.url, headers: req.headers, body };
 * ```
 */
export interface WebhookDelivery {
  readonly method: string;
  readonly url: string;
  readonly headers: WebhookHeaders;
  readonly body: Uint8Array;
}

/**
 * The answer to a delivery: a status (2xx accepted, anything else a failed delivery, spec 4.8)
 * and a small JSON body.
 *
 * @example
 * ```ts
 * const { status, body }: WebhookAnswer = await receiveWebhook(delivery, options);
 * ```
 */
export interface WebhookAnswer {
  readonly status: number;
  readonly body:
    | { readonly status: "accepted" | "duplicate"; readonly event_id: string }
    | { readonly error: string; readonly message: string };
}

/**
 * Receives one delivery, framework-free: POST only (405), the body limit (413), `verifyWebhook`
 * over the raw bytes with the timestamp window and every secret (401), strict UTF-8 JSON (400),
 * the event of spec 2.7 with the fields of its status (400; a success needs its result link),
 * `seen` (200, `duplicate`), then `onEvent` or the handler of the event's status (200,
 * `accepted`; 500 when it throws, so the platform retries). A status the spec does not list
 * goes to `onUnknownStatus`, or is refused (400) without it. `createWebhookHandler` and
 * `createWebhookMiddleware` wrap it for fetch and for Node, and check `options` once, when they
 * are created; called directly, it checks them on every call.
 *
 * @throws TypeError for settings no delivery can fix: no secret, an empty or blank one, `hash`
 *   with `hmac` (see {@link WebhookReceiverOptions}).
 *
 * @example
 * ```ts
 * const answer = await receiveWebhook({ method: "POST", url, headers, body }, { secrets, onEvent });
 * return new Response(JSON.stringify(answer.body), { status: answer.status });
 * ```
 */
export async function receiveWebhook(
  delivery: WebhookDelivery,
  options: WebhookReceiverOptions,
): Promise<WebhookAnswer> {
  return receiveChecked(delivery, checkReceiverOptions(options, "receiveWebhook"));
}

/** {@link receiveWebhook} with settings {@link checkReceiverOptions} has checked. */
export async function receiveChecked(
  delivery: WebhookDelivery,
  options: CheckedReceiverOptions,
): Promise<WebhookAnswer> {
  const refuse = (rejection: WebhookRejection) => refusal(options, rejection);
  if (delivery.method.toUpperCase() !== "POST") {
    const message = "Webhook deliveries are POST requests (spec 4.8)";
    return refuse({ status: 405, code: WEBHOOK_METHOD_NOT_ALLOWED, message });
  }
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (delivery.body.length > max) return refuse(tooLarge(max));

  const read = await verifyDelivery({ ...verificationSettings(options), ...delivery });
  if (!read.ok) return refuse(read.rejection);
  const context = { verification: read.verification, body: delivery.body };
  let handle: () => void | Promise<void>;
  let eventId: string;
  if ("event" in read) {
    const { event } = read;
    eventId = event.event_id;
    handle = () => dispatch(options.onEvent, event, context);
  } else {
    const { unknownStatus: body } = read;
    const { onUnknownStatus } = options;
    if (!onUnknownStatus) {
      const message = `The event's status ${JSON.stringify(body.status)} is none of spec 2.7's (${TASK_STATUSES.join(", ")}); give the receiver onUnknownStatus to take it`;
      return refuse({ status: 400, code: WEBHOOK_EVENT_INVALID, message });
    }
    eventId = body.event_id;
    handle = () => onUnknownStatus(body, context);
  }
  try {
    if (options.seen && (await options.seen(eventId))) {
      return { status: 200, body: { status: "duplicate", event_id: eventId } };
    }
    await handle();
  } catch (error) {
    // The error stays in the application's log: its text may hold anything.
    const message = "The receiver could not handle the event; the platform will deliver it again";
    return refuse({ status: 500, code: WEBHOOK_HANDLER_FAILED, message, error });
  }
  return { status: 200, body: { status: "accepted", event_id: eventId } };
}

/** The settings of a receiver `verifyDelivery` uses. */
export function verificationSettings(options: CheckedReceiverOptions) {
  return {
    secrets: options.secrets,
    formerSecrets: options.formerSecrets,
    alternateUrls: options.alternateUrls,
    now: options.now,
    toleranceMs: options.toleranceMs,
    diagnose: options.diagnose,
    hmac: options.hmac,
    hash: options.hash,
  };
}

/** Hands `event` to `onEvent`: the function, or the handler of its status (none: nothing). */
function dispatch(
  onEvent: CallbackEventHandler | CallbackEventHandlers,
  event: CallbackEvent,
  context: WebhookEventContext,
): void | Promise<void> {
  if (typeof onEvent === "function") return onEvent(event, context);
  // The handler of event.status takes that status's event: the lookup keeps them paired.
  const handler = onEvent[event.status] as CallbackEventHandler | undefined;
  return handler?.(event, context);
}

/**
 * Tells `onRejected` (if any) about a refused delivery and returns its answer: the code and, for
 * a request that failed verification, a generic message (see `SENDER_MESSAGES`). A throwing
 * `onRejected` changes nothing for the sender: the answer stays, and the error goes to the
 * console, since the hook that would have logged it is the one that failed.
 */
export function refusal(
  options: WebhookReceiverOptions,
  rejection: WebhookRejection,
): WebhookAnswer {
  try {
    options.onRejected?.(rejection);
  } catch (error) {
    console.error(`webhook receiver: onRejected threw while reporting ${rejection.code}`, error);
  }
  const message = SENDER_MESSAGES[rejection.code] ?? rejection.message;
  return { status: rejection.status, body: { error: rejection.code, message } };
}

/**
 * What the sender of a request that failed verification is told: the code and a generic
 * message. The full message says how the receiver is set up (how many secrets, which former
 * secret matched, the tolerance); an unauthenticated sender must not learn that, so it goes to
 * `onRejected` only, as Stripe's and Svix's libraries keep the details for the receiver's log.
 * Later refusals (a body that is not an event) come from a sender who signed, and say what.
 */
const SENDER_MESSAGES: Readonly<Record<string, string>> = {
  [WEBHOOK_MISSING_HEADER]:
    "The request is not signed: X-Sign-Timestamp and X-Signature are required",
  [WEBHOOK_MALFORMED_TIMESTAMP]: "X-Sign-Timestamp is not a 13-digit millisecond timestamp",
  [WEBHOOK_TIMESTAMP_OUT_OF_RANGE]: "X-Sign-Timestamp is outside the accepted window",
  [WEBHOOK_SIGNATURE_MISMATCH]: "The signature could not be verified",
};

/**
 * The answer when the receiver itself broke (the request stream failed, a bug): 500, so the
 * platform delivers again, reported to `onRejected`, or else to the console: a server must
 * never lose such an error, nor crash on it.
 */
export function receiverFailure(options: WebhookReceiverOptions, error: unknown): WebhookAnswer {
  const message = "The webhook receiver failed; the platform will deliver the event again";
  if (!options.onRejected) console.error(`webhook receiver: ${WEBHOOK_RECEIVER_FAILED}`, error);
  return refusal(options, { status: 500, code: WEBHOOK_RECEIVER_FAILED, message, error });
}

/** The rejection of a body longer than `max` bytes. */
export function tooLarge(max: number): WebhookRejection {
  return {
    status: 413,
    code: WEBHOOK_BODY_TOO_LARGE,
    message: `The body is larger than ${max} bytes`,
  };
}

/**
 * The bytes of `chunks` joined, or `undefined` as soon as they pass `max` bytes (the rest is not
 * read). Strings are taken as UTF-8.
 */
export async function readLimited(
  chunks: AsyncIterable<Uint8Array | string>,
  max: number,
): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = [];
  let length = 0;
  const encoder = new TextEncoder();
  for await (const chunk of chunks) {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    length += bytes.length;
    if (length > max) return undefined;
    parts.push(bytes);
  }
  const body = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  return body;
}
