/**
 * A correctly signed JSON body that is not the callback event of spec 2.7 (`event_id`, `task_id`
 * and `status` are required): answered 400.
 *
 * @example
 * ```ts
 * if (rejection.code === WEBHOOK_EVENT_INVALID) log.warn(rejection.message);
 * ```
 */
export const WEBHOOK_EVENT_INVALID = "WEBHOOK_EVENT_INVALID";

/**
 * The body is longer than the receiver's `maxBodyBytes`: answered 413 without reading the rest.
 *
 * @example
 * ```ts
 * createWebhookHandler({ secrets, onEvent, maxBodyBytes: 64 * 1024 }); // larger bodies: 413
 * ```
 */
export const WEBHOOK_BODY_TOO_LARGE = "WEBHOOK_BODY_TOO_LARGE";

/**
 * A request with a method other than POST (spec 4.8 delivers with POST): answered 405.
 *
 * @example
 * ```ts
 * if (rejection.code === WEBHOOK_METHOD_NOT_ALLOWED) return; // a browser or a probe
 * ```
 */
export const WEBHOOK_METHOD_NOT_ALLOWED = "WEBHOOK_METHOD_NOT_ALLOWED";

/**
 * `onEvent` (or `seen`) threw: answered 500, so the platform delivers the event again later
 * (spec 6 rule 2, 8: retries after 200 ms, 5 s, 15 s, 30 s, 120 s).
 *
 * @example
 * ```ts
 * createWebhookHandler({ secrets, onEvent, onRejected: (r) => r.code === WEBHOOK_HANDLER_FAILED && alert(r) });
 * ```
 */
export const WEBHOOK_HANDLER_FAILED = "WEBHOOK_HANDLER_FAILED";

/**
 * A body parser ran before the Node middleware and parsed the body, so the signed bytes are gone:
 * answered 500 (a configuration problem of the receiver, not of the delivery).
 *
 * @example
 * ```ts
 * app.post("/webhooks/platform", createWebhookMiddleware(options)); // before app.use(express.json())
 * ```
 */
export const WEBHOOK_BODY_ALREADY_PARSED = "WEBHOOK_BODY_ALREADY_PARSED";

/**
 * The receiver itself failed outside `onEvent`: the request stream broke, or a bug. Answered 500
 * (the platform delivers again) and reported to `onRejected` with the `error`, or to the
 * console when there is no `onRejected`; never a rejected promise that could end the process.
 *
 * @example
 * ```ts
 * onRejected: (r) => r.code === WEBHOOK_RECEIVER_FAILED && log.error({ err: r.error }, r.message)
 * ```
 */
export const WEBHOOK_RECEIVER_FAILED = "WEBHOOK_RECEIVER_FAILED";
