/**
 * Webhook receivers (spec 4.8, 4.9, 6): a fetch-style handler, the framework-free function under
 * it, and `constructCallbackEvent`, which verifies and returns the event or throws. Each verifies
 * over the raw bytes with the timestamp window, secret rotation and diagnostics of
 * `@overture/core/webhook`, checks the event of spec 2.7, dedupes by `event_id` with `seen`, and
 * hands over a {@link CallbackEvent} that narrows on `status`, to one `onEvent` or to one
 * handler per status. The Node middleware is `@overture/core/receiver/node`.
 *
 * ## The answers
 *
 * | Answer | When | `error` in the JSON body |
 * | --- | --- | --- |
 * | 200 | verified and handled (`status: "accepted"`), or `seen` (`"duplicate"`) | — |
 * | 400 | correctly signed, but not UTF-8, not JSON, or not an event of spec 2.7 with what its status needs (a success without a result link; a status the spec does not list, unless `onUnknownStatus` takes it) | `WEBHOOK_BODY_NOT_UTF8`, `WEBHOOK_BODY_NOT_JSON`, `WEBHOOK_EVENT_INVALID` |
 * | 401 | a header missing, a malformed or stale timestamp, a signature no secret matches | the `verifyWebhook` code, with a generic message |
 * | 405 | not a POST | `WEBHOOK_METHOD_NOT_ALLOWED` |
 * | 413 | over `maxBodyBytes` (declared or read) | `WEBHOOK_BODY_TOO_LARGE` |
 * | 500 | `onEvent` or `seen` threw, the request stream broke, or a body parser ran first; the platform delivers again | `WEBHOOK_HANDLER_FAILED`, `WEBHOOK_RECEIVER_FAILED`, `WEBHOOK_BODY_ALREADY_PARSED` |
 *
 * A 401 tells the sender the code and a generic message only; the full message (how many secrets,
 * which former secret matched, the tolerance) and the diagnoses go to `onRejected`, as Stripe's and
 * Svix's libraries keep them for the receiver's own log.
 *
 * @packageDocumentation
 */
export {
  WEBHOOK_BODY_ALREADY_PARSED,
  WEBHOOK_BODY_TOO_LARGE,
  WEBHOOK_EVENT_INVALID,
  WEBHOOK_HANDLER_FAILED,
  WEBHOOK_METHOD_NOT_ALLOWED,
  WEBHOOK_RECEIVER_FAILED,
} from "./codes.ts";
export { WebhookVerificationError, constructCallbackEvent } from "./construct.ts";
export type { ConstructCallbackEventInput } from "./construct.ts";
export { parseCallbackEvent } from "./event.ts";
export type {
  CallbackEvent,
  CallbackEventOf,
  CallbackEventReading,
  CancelledEvent,
  FailureEvent,
  InProgressEvent,
  SuccessEvent,
  WaitingEvent,
} from "./event.ts";
export { createWebhookHandler } from "./handler.ts";
export { DEFAULT_MAX_BODY_BYTES } from "./options.ts";
export type {
  CallbackEventHandler,
  CallbackEventHandlers,
  WebhookEventContext,
  WebhookReceiverOptions,
  WebhookRejection,
  WebhookSecrets,
} from "./options.ts";
export { receiveWebhook } from "./receive.ts";
export type { WebhookAnswer, WebhookDelivery } from "./receive.ts";
