import type { EventReset } from "../../schemas/task.ts";
import type { EventResetReason } from "../../schemas/task-states.ts";

/**
 * Server-Sent Events frames (HTML Living Standard, "Server-sent events"). Frames are encoded once
 * and the same bytes are enqueued on every stream that receives them.
 */
const encoder = new TextEncoder();

export const encodeText = (text: string): Uint8Array => encoder.encode(text);

/** A task event: `id` is the task_events id a client resumes from (`Last-Event-ID`). */
export function taskFrame(id: bigint, payloadJson: string): Uint8Array {
  return encoder.encode(`id: ${id}\nevent: task\ndata: ${payloadJson}\n\n`);
}

/** First frame of a fresh stream: the position to resume from if nothing arrives before a reconnect. */
export function readyFrame(id: bigint): Uint8Array {
  return encoder.encode(
    `id: ${id}\nevent: ready\ndata: ${JSON.stringify({ last_event_id: String(id) })}\n\n`,
  );
}

/**
 * Instead of a replay, when none can bring the client up to date (services/events/position.ts):
 * reload the task list; the stream goes on live after `id`, which the client resumes from.
 */
export function resetFrame(reason: EventResetReason, id: bigint): Uint8Array {
  const data: EventReset = { reason, last_event_id: String(id) };
  return encoder.encode(`event: reset\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function retryFrame(ms: number): Uint8Array {
  return encoder.encode(`retry: ${ms}\n\n`);
}

/** Why the server ends a stream on purpose; the client reconnects with Last-Event-ID either way. */
export type EndReason = "max_lifetime" | "too_many_streams";

/**
 * The last frame of a stream the server ends on purpose: says why, and when to come back.
 * Named, so `onmessage` listeners ignore it. No `id:`: the resume position stays the last event.
 */
export function endFrame(reason: EndReason, retryMs: number): Uint8Array {
  return encoder.encode(`event: end\ndata: ${JSON.stringify({ reason })}\nretry: ${retryMs}\n\n`);
}

/** A comment line: keeps proxies and the client's idle timer from closing a quiet stream. */
export const PING_FRAME = encoder.encode(": ping\n\n");
