import type { RelayDeliveryRow } from "../../db/schema/index.ts";
import type { RelayDelivery } from "../../schemas/relay.ts";

/**
 * The frames of a relay stream (Server-Sent Events): `event: delivery` with the delivery's id
 * as the event id, so a reconnect with Last-Event-ID resumes after the last one received.
 */
const encoder = new TextEncoder();

export function retryFrame(ms: number): Uint8Array {
  return encoder.encode(`retry: ${ms}\n\n`);
}

/** First frame of a fresh stream: where to resume from if nothing arrives before a reconnect. */
export function readyFrame(channelId: string, lastId: number): Uint8Array {
  const data = JSON.stringify({ channel_id: channelId, last_event_id: String(lastId) });
  return encoder.encode(`id: ${lastId}\nevent: ready\ndata: ${data}\n\n`);
}

export function deliveryJson(row: RelayDeliveryRow): RelayDelivery {
  return {
    id: String(row.id),
    received_at: row.receivedAt.toISOString(),
    method: row.method,
    path: row.path,
    query: row.query,
    headers: row.headers,
    body_base64: Buffer.from(row.body).toString("base64"),
  };
}

export function deliveryFrame(row: RelayDeliveryRow): Uint8Array {
  return encoder.encode(
    `id: ${row.id}\nevent: delivery\ndata: ${JSON.stringify(deliveryJson(row))}\n\n`,
  );
}

/** Why the server ends a stream on purpose; the client reconnects with Last-Event-ID. */
export type EndReason = "max_lifetime" | "too_many_listeners" | "channel_gone";

export function endFrame(reason: EndReason, retryMs: number): Uint8Array {
  return encoder.encode(`event: end\ndata: ${JSON.stringify({ reason })}\nretry: ${retryMs}\n\n`);
}

export const PING_FRAME = encoder.encode(": ping\n\n");
