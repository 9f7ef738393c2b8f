import type { ServerResponse } from "node:http";
import type { EventHub, LiveStream } from "./hub.ts";
import { controllerTarget } from "./stream-target.ts";
import type { StreamLimits } from "./limits.ts";

/**
 * The HTTP side of live events. The route answers with a normal `Response` (so every middleware
 * adds its headers), whose body is a Web stream claimed only if someone reads it (`app.request`
 * in tests). When the backend serves HTTP itself, `takeOverLiveResponse` (server.ts) writes that
 * response's head to the Node response and hands it the stream directly: no Web stream, no
 * reader loop, no fetch `Response` kept per connection — measured ~23 KB → ~14 KB per idle stream,
 * as little as a bare node:http SSE server (`pnpm bench`, item 4).
 */
export const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

// More than this many bytes written but not yet taken by the client: it is not keeping up.
const MAX_BACKLOG_BYTES = 1 << 20;

const streams = new WeakMap<ReadableStream<Uint8Array>, LiveStream>();

/**
 * A live-event `Response` for the session's user; the stream is attached to the hub at once and
 * ends when the session is revoked, after its lifetime, or when the user opens one too many.
 */
export function liveEventsResponse(
  hub: Pick<EventHub, "open">,
  session: { userId: number; sessionId: string },
  lastEventId: number | undefined,
  limits: StreamLimits,
): Response {
  const live = hub.open(session.userId, { lastEventId, sessionId: session.sessionId, limits });
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        live.claim(controllerTarget(controller));
      },
      cancel() {
        live.close();
      },
    },
    { highWaterMark: 0 },
  );
  streams.set(body, live);
  return new Response(body, { headers: EVENT_STREAM_HEADERS });
}

/**
 * Serves a live-event response straight on the Node response: writes the head the app built
 * (status and every header) and gives the stream the socket. False for any other response.
 */
export function takeOverLiveResponse(response: Response, outgoing: ServerResponse): boolean {
  const live = response.body ? streams.get(response.body) : undefined;
  if (!live) return false;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(response.status, headers);
  outgoing.flushHeaders();
  outgoing.on("close", () => {
    live.close();
  });
  live.claim({
    write: (frame) => {
      outgoing.write(frame);
    },
    backlogged: () => outgoing.writableLength > MAX_BACKLOG_BYTES,
    close: () => {
      outgoing.end();
    },
    fail: () => {
      outgoing.destroy();
    },
  });
  return true;
}
