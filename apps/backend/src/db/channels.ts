/**
 * The NOTIFY channels instances tell each other things on. Each payload is text; the writer and
 * the listener named beside each channel agree on its shape.
 */

/**
 * A task event was appended; payload: the highest new `task_events.id`. Written by
 * `services/events/append.ts` (delivered on commit), read by the live-event feed of every instance.
 */
export const TASK_EVENTS_CHANNEL = "overture_task_events";

/**
 * A session was revoked; payload `<userId>:<sessionId>`. Written by the session service after the
 * revocation commits; every instance's live-event hub ends that session's open streams at once
 * instead of letting them run until they reconnect (and are refused).
 */
export const SESSIONS_REVOKED_CHANNEL = "overture_sessions_revoked";

/**
 * An account's webhook secret changed; payload `<userId>:<namespace>`. Written by the webhook
 * secret service; every instance's webhook intake drops its cached copy at once instead of
 * verifying with a cleared or replaced secret until its cache entry ages out.
 */
export const WEBHOOK_SECRETS_CHANGED_CHANNEL = "overture_webhook_secrets_changed";

/**
 * A delivery reached a developer relay channel; payload `<channelId>:<deliveryId>` (the body
 * stays in `relay_deliveries`: a NOTIFY payload is limited to 8000 bytes). Written by the relay
 * in the transaction that stores the delivery; every instance's relay streams of that channel
 * read it from the table.
 */
export const RELAY_DELIVERIES_CHANNEL = "overture_relay_deliveries";
