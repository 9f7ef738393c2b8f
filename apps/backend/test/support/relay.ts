import { expect } from "vitest";
import type { RelayDelivery } from "../../src/schemas/relay.ts";
import type { TestInstance } from "./harness.ts";
import { readSse } from "./sse.ts";

export const RELAY_ON = { RELAY_ENABLED: "true" };

/** A channel just created: its id and the URL shown once. */
export interface CreatedChannel {
  id: string;
  url: string;
}

export async function createChannel(t: TestInstance, session: string): Promise<CreatedChannel> {
  const response = await t.request("/api/relay/channels", { method: "POST", session });
  expect(response.status).toBe(201);
  const channel = (await response.json()) as { id: string; url: string };
  return { id: channel.id, url: channel.url };
}

/** `POST` to a relay URL (absolute, on the test's PUBLIC_URL), as the platform would. */
export function deliver(t: TestInstance, url: string, init: RequestInit = {}) {
  const { pathname, search } = new URL(url);
  return t.request(`${pathname}${search}`, {
    method: "POST",
    body: '{"event_id":"e1","status":"success"}',
    ...init,
    headers: { "Content-Type": "application/json", ...(init.headers as Record<string, string>) },
  });
}

/** Opens a listener's stream; `nextDelivery` skips other frames and fails loudly on silence. */
export async function listen(
  t: TestInstance,
  session: string,
  channelId: string,
  lastEventId?: string,
) {
  const response = await t.request(`/api/relay/channels/${channelId}/events`, {
    session,
    ...(lastEventId === undefined ? {} : { headers: { "Last-Event-ID": lastEventId } }),
  });
  expect(response.status).toBe(200);
  const stream = readSse(response);
  return {
    next: () => stream.next(),
    close: () => stream.close(),
    get ended() {
      return stream.ended;
    },
    async nextDelivery(): Promise<RelayDelivery> {
      for (;;) {
        const frame = await stream.next();
        if (!frame) throw new Error("relay stream ended");
        if (frame.event === "delivery" && frame.data)
          return JSON.parse(frame.data) as RelayDelivery;
      }
    },
    /** Why the server ended the stream (`event: end`), or undefined if it ended without one. */
    async endReason(): Promise<string | undefined> {
      for (;;) {
        const frame = await stream.next();
        if (!frame) return undefined;
        if (frame.event === "end")
          return (JSON.parse(frame.data ?? "{}") as { reason?: string }).reason;
      }
    },
  };
}

/** A delivery sent again to `localUrl` (path and query appended), as `overture-webhooks listen` does. */
export function forwarded(delivery: RelayDelivery, localUrl: string): Request {
  const url = `${localUrl}${delivery.path}${delivery.query ? `?${delivery.query}` : ""}`;
  return new Request(url, {
    method: delivery.method,
    headers: delivery.headers,
    body: Buffer.from(delivery.body_base64, "base64"),
  });
}

/** Waits (bounded) until the channel has no listener: a stream's close is noticed asynchronously. */
export async function untilNobodyListens(t: TestInstance, channelId: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (!(await t.backend.deps.services.devRelay.hasListener(channelId))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the listener's lease was not released within 2 s");
}
