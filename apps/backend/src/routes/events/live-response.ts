import type { LiveStream } from "../../services/events/hub.ts";
import { controllerTarget } from "../../services/events/stream-target.ts";

export const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

/**
 * The plain way to answer with a live stream: a `Response` whose body is a Web stream that claims
 * `live` when first read, and closes it when the reader leaves. An HTTP edge that serves streams
 * itself takes such a response over instead (server/sse-takeover.ts).
 */
export function liveEventsResponse(live: LiveStream): Response {
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
  return new Response(body, { headers: EVENT_STREAM_HEADERS });
}
