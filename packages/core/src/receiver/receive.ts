import { callbackEventSchema, type CallbackEvent } from "../schemas/index.ts";
import {
  readWebhookBody,
  verifyWebhook,
  verifyWebhookSync,
  type HashSha256,
  type HmacSha256Hex,
  type SignatureDiagnosis,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerified,
} from "../webhook/index.ts";
import {
  WEBHOOK_BODY_TOO_LARGE,
  WEBHOOK_EVENT_INVALID,
  WEBHOOK_HANDLER_FAILED,
  WEBHOOK_METHOD_NOT_ALLOWED,
} from "./codes.ts";

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
 * A delivery the receiver refused, for the application's log; never holds a secret.
 *
 * @example
 * ```ts
 * onRejected: ({ status, code, message }) => log.warn({ status, code }, message)
 * ```
 */
export interface WebhookRejection {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** The spec 7 causes of a signature mismatch that could be confirmed. */
  readonly diagnoses?: readonly SignatureDiagnosis[];
  /** What `onEvent` or `seen` threw (`WEBHOOK_HANDLER_FAILED`). */
  readonly error?: unknown;
}

/**
 * Settings of a webhook receiver: the verification settings of `verifyWebhook` (secrets for
 * rotation, `formerSecrets`, the timestamp window, diagnostics, the HMAC) and what to do with an
 * event.
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
  "body" | "url" | "headers"
> {
  /** Receives each verified event (spec 2.7), typed and validated, once per `event_id` when
   * `seen` is given. Throwing answers 500, so the platform delivers it again. */
  readonly onEvent: (event: CallbackEvent, context: WebhookEventContext) => void | Promise<void>;
  /** Whether `onEvent` already handled this `event_id` (spec 6 rule 3: the platform re-delivers
   * an event with the same id). `true` answers 200 without calling `onEvent`. It only reads:
   * record the id in `onEvent`, with the event's effect, so a failed `onEvent` is retried. */
  readonly seen?: (eventId: string) => boolean | Promise<boolean>;
  /** Told about every refused delivery, for logs. */
  readonly onRejected?: (rejection: WebhookRejection) => void;
  /** Largest body read, in bytes; default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** HMAC implementation; default WebCrypto. */
  readonly hmac?: HmacSha256Hex;
  /** A one-shot SHA-256 such as `node:crypto`'s `hash` (Node >= 20.12): deliveries are then
   * verified by `verifyWebhookSync({ hash })`, the fastest verifier, with no promise per HMAC.
   * Give `hash` or `hmac`, not both (a TypeError). */
  readonly hash?: HashSha256;
}

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
 * the event of spec 2.7 (400), `seen` (200, `duplicate`), then `onEvent` (200, `accepted`; 500
 * when it throws, so the platform retries). `createWebhookHandler` and
 * `createWebhookMiddleware` wrap it for fetch and for Node.
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
  const refuse = (rejection: WebhookRejection): WebhookAnswer => {
    options.onRejected?.(rejection);
    return {
      status: rejection.status,
      body: { error: rejection.code, message: rejection.message },
    };
  };
  if (delivery.method.toUpperCase() !== "POST") {
    const message = "Webhook deliveries are POST requests (spec 4.8)";
    return refuse({ status: 405, code: WEBHOOK_METHOD_NOT_ALLOWED, message });
  }
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (delivery.body.length > max) return refuse(tooLarge(max));

  const { onEvent, seen } = options;
  const verification = await verify(delivery, options);
  if (!verification.ok) {
    const { code, message, diagnoses } = verification;
    return refuse({ status: 401, code, message, ...(diagnoses ? { diagnoses } : {}) });
  }
  const read = readWebhookBody(delivery.body);
  if (!read.ok) return refuse({ status: 400, code: read.code, message: read.message });
  const parsed = callbackEventSchema.safeParse(read.json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join(".") || "(body)"))];
    const message = `The body is not a callback event of spec 2.7: check ${fields.join(", ")}`;
    return refuse({ status: 400, code: WEBHOOK_EVENT_INVALID, message });
  }
  const event = parsed.data;
  try {
    if (seen && (await seen(event.event_id))) {
      return { status: 200, body: { status: "duplicate", event_id: event.event_id } };
    }
    await onEvent(event, { verification, body: delivery.body });
  } catch (error) {
    // The error stays in the application's log: its text may hold anything.
    const message = "The receiver could not handle the event; the platform will deliver it again";
    return refuse({ status: 500, code: WEBHOOK_HANDLER_FAILED, message, error });
  }
  return { status: 200, body: { status: "accepted", event_id: event.event_id } };
}

/** The delivery verified with the receiver's HMAC: `hash` synchronously, else `hmac` or WebCrypto. */
function verify(delivery: WebhookDelivery, options: WebhookReceiverOptions) {
  const input: VerifyWebhookOptions = {
    body: delivery.body,
    url: delivery.url,
    headers: delivery.headers,
    secrets: options.secrets,
    formerSecrets: options.formerSecrets,
    alternateUrls: options.alternateUrls,
    now: options.now,
    toleranceMs: options.toleranceMs,
    diagnose: options.diagnose,
  };
  if (options.hash === undefined) return verifyWebhook({ ...input, hmac: options.hmac });
  if (options.hmac !== undefined) {
    throw new TypeError("A webhook receiver takes `hash` or `hmac`, not both");
  }
  return verifyWebhookSync({ ...input, hash: options.hash });
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
