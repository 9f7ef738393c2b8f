import { browser } from "wxt/browser";
import { type ErrorPayload, OvertureError, isErrorCode, toErrorPayload } from "./errors.ts";
import type { DownloadProgress, DownloadResult } from "./download-result.ts";
import type { LibraryQuery } from "./library-query.ts";
import type { Waveform } from "./peaks.ts";
import type { Refusal } from "./refusals.ts";
import type { Snapshot } from "./snapshot.ts";
import type {
  AccessToken,
  AudioFormat,
  BackendReadiness,
  MediaLink,
  DeviceSession,
  Selection,
  Task,
  TaskDeletion,
  TaskDetails,
  Share,
  ShareExpiry,
  TaskEstimate,
  TaskPage,
  TaskPatch,
  WebhookSecretStatus,
} from "./types.ts";

/**
 * The one message map between views (popup, side panel, options) and the background. Every
 * request names its payload and its answer; the background implements each with a handler of the
 * same name, so a missing or mistyped handler is a type error.
 */
export interface MessageMap {
  /** Re-reads everything from the backend and answers the new snapshot. */
  "state/refresh": { request: undefined; response: Snapshot };
  /** Runs the whole sign-in in the background (PKCE, consent window, code exchange). */
  "auth/sign-in": { request: undefined; response: Snapshot };
  "auth/sign-out": { request: undefined; response: Snapshot };
  "sessions/list": { request: undefined; response: DeviceSession[] };
  "sessions/revoke": { request: { id: string }; response: DeviceSession[] };
  "tokens/list": { request: { namespace: string }; response: AccessToken[] };
  "selection/set": { request: Selection; response: Snapshot };
  "tasks/submit": { request: { params: Record<string, unknown> }; response: Task };
  "tasks/cancel": { request: { id: string }; response: Task };
  "tasks/more": { request: { cursor: string }; response: TaskPage };
  /** A page of the library as the library bar asks for it (search, filter, sort). */
  "tasks/search": { request: { query: LibraryQuery; cursor?: string }; response: TaskPage };
  /** Renames and/or (un)favourites a task; the changed row also lands in the snapshot. */
  "tasks/update": { request: { id: string; patch: TaskPatch }; response: Task };
  /** Hides a finished task (it leaves the list); restorable until the answer's `undo_until`. */
  "tasks/delete": { request: { id: string }; response: TaskDeletion };
  /** Everything known about one task, for its details view. */
  "tasks/details": { request: { id: string }; response: TaskDetails };
  /** How long a running task is likely to take still, from the user's own similar tasks. */
  "tasks/estimate": { request: { id: string }; response: TaskEstimate };
  /** Creates a public link to a track; the answer's `url` is the only time it is given. */
  "shares/create": {
    request: { id: string; expires_in: ShareExpiry; include_text: boolean };
    response: Share;
  };
  /** A track's links and their status (without URLs). */
  "shares/list": { request: { id: string }; response: Share[] };
  /** Revokes one link (by the share's id); answers it revoked. */
  "shares/revoke": { request: { shareId: string }; response: Share };
  /** Submits a task's parameters again as a new task (it joins the list). */
  "tasks/regenerate": { request: { id: string }; response: Task };
  /** Brings a deleted task back within its undo window. */
  "tasks/restore": { request: { id: string }; response: Task };
  "webhook/status": { request: { namespace: string }; response: WebhookSecretStatus };
  "webhook/set": { request: { namespace: string; secret: string }; response: WebhookSecretStatus };
  "webhook/clear": { request: { namespace: string }; response: WebhookSecretStatus };
  /** The account's refused deliveries since its secret was saved (none without a secret). */
  "webhook/refusals": { request: { namespace: string }; response: Refusal[] };
  /** Switches backend; the view has already asked for the host permission (a user gesture). */
  "settings/backend-url": { request: { url: string }; response: Snapshot };
  /** Tests a backend address before it is saved (first run); the view asked for the permission. */
  "backend/check": { request: { url: string }; response: BackendReadiness };
  /**
   * Saves a result as `format` (the original, or the archived MP3) under the track's name;
   * answers when the download ended (watched through `downloads.onChanged`).
   */
  "audio/download": { request: { id: string; format: AudioFormat }; response: DownloadResult };
  /** How far the running download of a task is (null: none running). */
  "audio/download-progress": { request: { id: string }; response: DownloadProgress | null };
  /** An archived result's waveform (the stored peaks, never audio; kept once fetched). */
  "audio/peaks": { request: { id: string }; response: Waveform };
  /** A URL the view's `<audio>` streams an archived result from (Range requests, no session). */
  "audio/media-link": { request: { id: string; format: AudioFormat }; response: MediaLink };
}

export type MessageType = keyof MessageMap;
export type RequestOf<K extends MessageType> = MessageMap[K]["request"];
export type ResponseOf<K extends MessageType> = MessageMap[K]["response"];

/** The background's implementation of the map. */
export type Handlers = {
  [K in MessageType]: (request: RequestOf<K>) => Promise<ResponseOf<K>>;
};

/** On the wire: the request, and the answer that never throws across the channel. */
export interface Envelope<K extends MessageType = MessageType> {
  overture: 1;
  type: K;
  payload: RequestOf<K>;
}
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

export const MESSAGE_TYPES = [
  "state/refresh",
  "auth/sign-in",
  "auth/sign-out",
  "sessions/list",
  "sessions/revoke",
  "tokens/list",
  "selection/set",
  "tasks/submit",
  "tasks/cancel",
  "tasks/more",
  "tasks/search",
  "tasks/update",
  "tasks/delete",
  "tasks/restore",
  "tasks/details",
  "tasks/regenerate",
  "tasks/estimate",
  "shares/create",
  "shares/list",
  "shares/revoke",
  "webhook/status",
  "webhook/set",
  "webhook/clear",
  "webhook/refusals",
  "settings/backend-url",
  "backend/check",
  "audio/download",
  "audio/download-progress",
  "audio/peaks",
  "audio/media-link",
] as const satisfies readonly MessageType[];

// Every message type of the map is listed above (a missing one would be refused at run time).
type Unlisted = Exclude<MessageType, (typeof MESSAGE_TYPES)[number]>;
export const EVERY_TYPE_LISTED: [Unlisted] extends [never] ? true : never = true;

export function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== "object" || value === null) return false;
  const { overture, type } = value as Partial<Envelope>;
  return overture === 1 && (MESSAGE_TYPES as readonly unknown[]).includes(type);
}

/** Runs the handler for one envelope; failures become `{ ok: false, error }` with a stable code. */
export async function dispatch(handlers: Handlers, envelope: Envelope): Promise<Reply<unknown>> {
  try {
    const handler = handlers[envelope.type] as (request: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(envelope.payload) };
  } catch (error) {
    return { ok: false, error: toErrorPayload(error) };
  }
}

/**
 * Background side: answers every envelope with its handler through `sendResponse`, returning
 * `true` so the channel stays open until the answer is ready (Chrome and Firefox both honour it).
 * Returns the remover.
 */
export function serveMessages(handlers: Handlers): () => void {
  const listener = (message: unknown, _sender: unknown, sendResponse: (reply: unknown) => void) => {
    if (!isEnvelope(message)) return undefined;
    void dispatch(handlers, message).then(sendResponse);
    return true;
  };
  browser.runtime.onMessage.addListener(listener);
  return () => {
    browser.runtime.onMessage.removeListener(listener);
  };
}

/** View side: sends one typed request; throws an `OvertureError` with the background's code. */
export async function send<K extends MessageType>(
  type: K,
  ...args: RequestOf<K> extends undefined ? [] : [RequestOf<K>]
): Promise<ResponseOf<K>> {
  const envelope: Envelope<K> = { overture: 1, type, payload: args[0] };
  const reply = await browser.runtime.sendMessage<Envelope<K>, Reply<ResponseOf<K>> | undefined>(
    envelope,
  );
  if (!reply) throw new OvertureError("unexpected", "The background did not answer.");
  if (reply.ok) return reply.value;
  const code = isErrorCode(reply.error.code) ? reply.error.code : "unexpected";
  const { fields = [], retryAfterSeconds } = reply.error;
  throw new OvertureError(code, reply.error.message, {
    fields,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
}

/** Name of the runtime Port a view opens to keep the live event stream running. */
export const LIVE_PORT = "overture/live";

/**
 * How the live event stream stands, told to each view over its live Port: opening, open, or
 * lost and being reopened (the backend is unreachable or the link went silent).
 */
export type LiveStatus = "connecting" | "live" | "reconnecting";
export interface LiveStatusMessage {
  liveStatus: LiveStatus;
}
