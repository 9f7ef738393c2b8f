/**
 * Webhook receivers (spec 4.8, 4.9, 6): a fetch-style handler, the framework-free function under
 * it, and `constructCallbackEvent`, which verifies and returns the event or throws. Each verifies
 * over the raw bytes with the timestamp window, secret rotation and diagnostics of
 * `@overture/core/webhook`, checks the event of spec 2.7, dedupes by `event_id` with `seen`, and
 * hands over a {@link CallbackEvent} that narrows on `status`, to one `onEvent` or to one
 * handler per status. The Node middleware is `@overture/core/receiver/node`.
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
