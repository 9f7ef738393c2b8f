/** One Server-Sent Events frame as a client sees it (comments kept, for heartbeats). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  comment?: string;
}

/**
 * Reads an SSE response frame by frame, as the extension does with `fetch` streaming. `next()`
 * fails loudly when nothing arrives within `waitMs` instead of hanging the suite.
 */
export function readSse(response: Response, waitMs = 5_000) {
  if (!response.body) throw new Error("SSE response without a body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const frames: SseFrame[] = [];
  let ended = false;

  function parse(block: string): SseFrame {
    const frame: SseFrame = {};
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) frame.comment = line.slice(1).trim();
      const colon = line.indexOf(":");
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") frame.id = value;
      else if (field === "event") frame.event = value;
      else if (field === "data")
        frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
      else if (field === "retry") frame.retry = Number(value);
    }
    return frame;
  }

  async function fill(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no SSE frame within ${waitMs} ms`));
      }, waitMs);
    });
    try {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) {
        ended = true;
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        frames.push(parse(buffer.slice(0, end)));
        buffer = buffer.slice(end + 2);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** The next frame; undefined when the stream ended. */
    async next(): Promise<SseFrame | undefined> {
      while (frames.length === 0 && !ended) await fill();
      return frames.shift();
    },
    /** The next `event: task` frame, skipping pings and other frames. */
    async nextTask(): Promise<{
      id: number;
      task: { id: string; status: string } & Record<string, unknown>;
    }> {
      for (;;) {
        const frame = await this.next();
        if (!frame) throw new Error("SSE stream ended");
        if (frame.event === "task" && frame.id && frame.data) {
          return {
            id: Number(frame.id),
            task: JSON.parse(frame.data) as { id: string; status: string },
          };
        }
      }
    },
    get ended() {
      return ended;
    },
    /** Disconnects, as a client closing the connection. */
    close: () => reader.cancel(),
  };
}

/**
 * Collects the ids of `event: task` frames in the background, in arrival order, until the stream
 * ends or `close()` disconnects (as a client going away mid-stream).
 */
export function collectTaskIds(response: Response) {
  const stream = readSse(response, 600_000);
  const ids: number[] = [];
  const state: { readyId?: number } = {};
  const done = (async () => {
    try {
      for (let frame = await stream.next(); frame; frame = await stream.next()) {
        if (frame.event === "task" && frame.id) ids.push(Number(frame.id));
        if (frame.event === "ready" && frame.id) state.readyId = Number(frame.id);
      }
    } catch {
      // disconnected
    }
  })();
  return {
    ids,
    /** The resume position a fresh stream announced (`event: ready`). */
    get readyId(): number | undefined {
      return state.readyId;
    },
    get last(): number | undefined {
      return ids.at(-1);
    },
    async close(): Promise<void> {
      await stream.close().catch(() => undefined);
      await done;
    },
  };
}
