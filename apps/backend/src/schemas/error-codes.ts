/**
 * Every `error` code the backend itself answers with, declared once. The extension imports them
 * from `@overture/backend/api` (this file has no imports, so it costs the extension's bundle only
 * these strings). Two more families reach clients lower-cased and are not repeated here: the
 * platform's errors (`@overture/core/errors`, e.g. `quota_exhausted`) and the webhook
 * verification codes (`@overture/core/webhook`, e.g. `webhook_signature_mismatch`).
 */

// Sessions and sign-in
/** No session token, or one that is unknown, expired or signed out. */
export const UNAUTHENTICATED = "unauthenticated";
/** The platform grant has ended (revoked, refused on refresh, never stored): sign in again. */
export const REAUTHENTICATION_REQUIRED = "reauthentication_required";
/** A hand-off code that is unknown, used, expired or does not match its PKCE verifier. */
export const INVALID_GRANT = "invalid_grant";
/** A sign-in `state` that is unknown, used or expired. */
export const INVALID_STATE = "invalid_state";
/** `/auth/start` with a redirect address outside `EXTENSION_REDIRECT_URLS`. */
export const REDIRECT_URI_NOT_ALLOWED = "redirect_uri_not_allowed";
/** Too many sign-in requests from one address, or deliveries to one relay channel. */
export const RATE_LIMITED = "rate_limited";
/** No active session of the caller's has this id. */
export const SESSION_NOT_FOUND = "session_not_found";
/** The platform refused the backend's own client credentials: the operator must fix them. */
export const BACKEND_MISCONFIGURED = "backend_misconfigured";
/** A CORS preflight from an origin outside `EXTENSION_ORIGINS`. */
export const ORIGIN_NOT_ALLOWED = "origin_not_allowed";

// Requests
/** A malformed request (body, query, header or path), with `fields` when validation says which. */
export const INVALID_REQUEST = "invalid_request";
/** Music parameters the platform would refuse, with `fields` (core's `MusicFieldError`s). */
export const INVALID_PARAMETERS = "invalid_parameters";
/** A task-list cursor this API did not return. */
export const INVALID_CURSOR = "invalid_cursor";
/** A webhook secret that cannot be stored (empty, too long, padded with whitespace). */
export const INVALID_SECRET = "invalid_secret";
/** A request body over its limit. */
export const PAYLOAD_TOO_LARGE = "payload_too_large";
/** A JSON route called with another content type. */
export const UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type";
/** No route for this method and path. */
export const NOT_FOUND = "not_found";
/** Another refusal of the HTTP layer, passed on with its status. */
export const HTTP_ERROR = "http_error";

// Platform credentials
/** A namespace that does not exist or that the user is not a member of. */
export const NAMESPACE_NOT_FOUND = "namespace_not_found";
/** No such access token in the namespace (deleted, or the user left it). */
export const ACCESS_TOKEN_NOT_FOUND = "access_token_not_found";
/** Tasks need an access token chosen first (`PUT /api/selection`). */
export const NO_TOKEN_SELECTED = "no_token_selected";
/** The platform could not be reached or failed; nothing was revoked: retry shortly. */
export const PLATFORM_UNAVAILABLE = "platform_unavailable";

// Tasks
/** No task with this id among the caller's tasks. */
export const TASK_NOT_FOUND = "task_not_found";
/** The task is final, or `unknown`: there is nothing to cancel. */
export const NOT_CANCELLABLE = "not_cancellable";
/** The task's result has no archived copy on this server (or not in the format asked for). */
export const NOT_ARCHIVED = "not_archived";
/** The result was not archived: the user's archived files would exceed ARCHIVE_QUOTA_MB. */
export const ARCHIVE_QUOTA_EXCEEDED = "archive_quota_exceeded";
/** A media link that was altered, expired, or sealed with a key no longer configured. */
export const MEDIA_LINK_INVALID = "media_link_invalid";
/** Deleting a task that is still queued or running: cancel it first. */
export const TASK_ACTIVE = "task_active";
/** Restoring a deleted task after its undo window (or one that was never deleted). */
export const UNDO_EXPIRED = "undo_expired";

// Share links
/** No share link with this id among the caller's, or no public share with this token. */
export const SHARE_NOT_FOUND = "share_not_found";
/** A share link its owner revoked or that has expired (410). */
export const SHARE_GONE = "share_gone";

// Webhook deliveries (besides core's verification codes)
/** No task waits for callbacks with this key. */
export const UNKNOWN_TASK = "unknown_task";
/** The task's account has no webhook secret to verify with. */
export const NO_SECRET = "no_secret";
/** The signed body is not a callback event (spec 2.7). */
export const MALFORMED_BODY = "malformed_body";
/** The event names another task than the one its callback URL belongs to. */
export const TASK_MISMATCH = "task_mismatch";

// Command-line sign-in (RFC 8628 device authorization grant; the codes are the RFC's)
/** The person has not approved the device yet: poll again after `interval`. */
export const AUTHORIZATION_PENDING = "authorization_pending";
/** Polled sooner than `interval`: wait 5 s longer from now on. */
export const SLOW_DOWN = "slow_down";
/** The device code expired before it was approved: start again. */
export const EXPIRED_TOKEN = "expired_token";
/** The person denied the device (on the confirmation page or the platform's). */
export const ACCESS_DENIED = "access_denied";
/** A token request with a `grant_type` other than the device code's. */
export const UNSUPPORTED_GRANT_TYPE = "unsupported_grant_type";
/** A user code that names no pending sign-in (mistyped, expired or already used). */
export const INVALID_USER_CODE = "invalid_user_code";

// Developer relay (`overture-webhooks listen`)
/** No relay channel of the caller's with this id, or no channel at this relay URL. */
export const RELAY_CHANNEL_NOT_FOUND = "relay_channel_not_found";
/** The user already has the most relay channels allowed: delete one first. */
export const RELAY_CHANNEL_LIMIT = "relay_channel_limit";
/** Nobody listens on the channel now: the delivery is refused so the platform retries later. */
export const RELAY_NO_LISTENER = "relay_no_listener";
/** The channel's buffer holds as many deliveries or bytes as allowed: retry later. */
export const RELAY_BUFFER_FULL = "relay_buffer_full";
/** A relay URL called with a method other than POST. */
export const METHOD_NOT_ALLOWED = "method_not_allowed";

// The server itself
/** The database is unreachable; retry after `Retry-After`. */
export const DATABASE_UNAVAILABLE = "database_unavailable";
/** An unexpected failure; the body carries the request id for the logs. */
export const INTERNAL_ERROR = "internal_error";
/** The instance is draining before it stops; retry (another instance answers). */
export const SHUTTING_DOWN = "shutting_down";

export const API_ERROR_CODES = [
  UNAUTHENTICATED,
  REAUTHENTICATION_REQUIRED,
  INVALID_GRANT,
  INVALID_STATE,
  REDIRECT_URI_NOT_ALLOWED,
  RATE_LIMITED,
  SESSION_NOT_FOUND,
  BACKEND_MISCONFIGURED,
  ORIGIN_NOT_ALLOWED,
  INVALID_REQUEST,
  INVALID_PARAMETERS,
  INVALID_CURSOR,
  INVALID_SECRET,
  PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE,
  NOT_FOUND,
  HTTP_ERROR,
  NAMESPACE_NOT_FOUND,
  ACCESS_TOKEN_NOT_FOUND,
  NO_TOKEN_SELECTED,
  PLATFORM_UNAVAILABLE,
  TASK_NOT_FOUND,
  NOT_CANCELLABLE,
  NOT_ARCHIVED,
  ARCHIVE_QUOTA_EXCEEDED,
  MEDIA_LINK_INVALID,
  TASK_ACTIVE,
  UNDO_EXPIRED,
  SHARE_NOT_FOUND,
  SHARE_GONE,
  UNKNOWN_TASK,
  NO_SECRET,
  MALFORMED_BODY,
  TASK_MISMATCH,
  AUTHORIZATION_PENDING,
  SLOW_DOWN,
  EXPIRED_TOKEN,
  ACCESS_DENIED,
  UNSUPPORTED_GRANT_TYPE,
  INVALID_USER_CODE,
  RELAY_CHANNEL_NOT_FOUND,
  RELAY_CHANNEL_LIMIT,
  RELAY_NO_LISTENER,
  RELAY_BUFFER_FULL,
  METHOD_NOT_ALLOWED,
  DATABASE_UNAVAILABLE,
  INTERNAL_ERROR,
  SHUTTING_DOWN,
] as const;

/** An `error` code of the backend's own (the `code` of every `ApiError`). */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
