// A stream this far behind (queued frames) is closed; the client reconnects and replays.
export const MAX_QUEUED_FRAMES = 1_000;

/**
 * Where a stream's frames go: the Node response itself when the backend serves HTTP
 * (server/sse-takeover.ts: no Web stream, so less memory per idle connection), or a Web stream's
 * controller for in-process requests (`app.request` in tests).
 */
export interface StreamTarget {
  write(frame: Uint8Array): void;
  /** More unsent data than a healthy client leaves behind: the stream is closed. */
  backlogged(): boolean;
  close(): void;
  /** Ends the stream with an error (the attach failed). */
  fail(error: unknown): void;
}

/** A Web stream's controller as a target (`MAX_QUEUED_FRAMES` queued frames at most). */
export function controllerTarget(
  controller: ReadableStreamDefaultController<Uint8Array>,
): StreamTarget {
  return {
    write: (frame) => {
      controller.enqueue(frame);
    },
    backlogged: () => (controller.desiredSize ?? 0) < -MAX_QUEUED_FRAMES,
    close: () => {
      controller.close();
    },
    fail: (error) => {
      try {
        controller.error(error);
      } catch {
        // the reader already left
      }
    },
  };
}
