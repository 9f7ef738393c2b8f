import type { ServerResponse } from "node:http";

// More than this many bytes written but not yet taken by the client: it is not keeping up.
const MAX_BACKLOG_BYTES = 1 << 20;

/** Where the Node response takes a live stream's frames (the shape of a stream's target). */
interface NodeTarget {
  write(frame: Uint8Array): void;
  backlogged(): boolean;
  close(): void;
  fail(error: unknown): void;
}

/** What the takeover needs of a live stream (`services/events/stream.ts`). */
export interface TakeoverStream {
  claim(target: NodeTarget): void;
  close(): void;
}

/**
 * Live-event responses served straight on the Node response. The events route answers with a
 * normal `Response` (so every middleware adds its headers) whose body is a Web stream, read only
 * if someone reads it (`app.request` in tests); it offers that response here. When the backend
 * serves HTTP itself, the server writes an offered response's head to the Node response and hands
 * the stream the socket: no Web stream, no reader loop, no fetch `Response` kept per connection,
 * so an idle stream costs about what it costs a bare node:http SSE server. One per app:
 * `createBackend` makes it, the route offers, the server serves.
 */
export function createSseTakeover() {
  const offered = new WeakMap<ReadableStream<Uint8Array>, TakeoverStream>();
  return {
    /** Marks `response`, whose body reads `live`, as one the Node server may serve itself. */
    offer(response: Response, live: TakeoverStream): Response {
      if (response.body) offered.set(response.body, live);
      return response;
    },

    /**
     * Serves an offered response on `outgoing`: writes the head the app built (status and every
     * header) and gives the stream the socket. False for any other response.
     */
    serve(response: Response, outgoing: ServerResponse): boolean {
      const live = response.body ? offered.get(response.body) : undefined;
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
    },
  };
}

export type SseTakeover = ReturnType<typeof createSseTakeover>;
