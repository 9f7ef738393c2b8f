/**
 * Server-sent events read with `fetch` (an `EventSource` cannot send the bearer header). The
 * parser follows the WHATWG event-stream rules: lines end in CRLF, LF or CR; `:` starts a
 * comment; `data` lines join with LF; `id` sets the last event id (not when it contains NUL);
 * `retry` sets the reconnection delay; a blank line dispatches.
 */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export interface SseParser {
  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseEvent[];
  /** The last `id:` seen (the value to resume with), or null. */
  readonly lastEventId: string | null;
  /** The last valid `retry:` in milliseconds, or null. */
  readonly retryMs: number | null;
}

export function createSseParser(initialLastEventId: string | null = null): SseParser {
  let buffer = "";
  let data: string[] = [];
  let eventType = "";
  let lastEventId = initialLastEventId;
  let retryMs: number | null = null;
  let sawCr = false;

  function line(text: string, events: SseEvent[]): void {
    if (text === "") {
      if (data.length > 0)
        events.push({ id: lastEventId, event: eventType || "message", data: data.join("\n") });
      data = [];
      eventType = "";
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") eventType = value;
    else if (field === "id" && !value.includes("\0")) lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
  }

  return {
    push(text) {
      const events: SseEvent[] = [];
      for (const char of text) {
        // A CR followed by LF is one line end; the LF may arrive in the next chunk.
        if (sawCr && char === "\n") {
          sawCr = false;
          continue;
        }
        sawCr = char === "\r";
        if (char === "\r" || char === "\n") {
          line(buffer, events);
          buffer = "";
        } else buffer += char;
      }
      return events;
    },
    get lastEventId() {
      return lastEventId;
    },
    get retryMs() {
      return retryMs;
    },
  };
}

export interface StreamOptions {
  /** Builds the request for a (re)connection, with `Last-Event-ID` when resuming. */
  request: (lastEventId: string | null) => Request;
  fetch: typeof fetch;
  lastEventId: string | null;
  signal: AbortSignal;
  /**
   * The events each received chunk completed, in order (a replay arrives as a few large chunks:
   * the caller applies each batch at once instead of event by event).
   */
  onEvents: (events: SseEvent[]) => void | Promise<void>;
  /** Called when the resume position moves, also for an id sent without data (a `ready` frame). */
  onCursor?: (lastEventId: string) => void | Promise<void>;
  /** Called when a connection opens (2xx) and when one fails. */
  onStatus?: (status: { connected: boolean; error?: unknown }) => void;
  /** Whether an error ends the stream for good (e.g. the session is gone). */
  isFatal?: (error: unknown) => boolean;
  /** Answers a non-2xx response with the error to report. */
  toError?: (response: Response) => Promise<unknown>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * First reconnection delay until the server sends `retry:`, which then replaces it; doubled per
   * failed connection up to `maxDelayMs`, back to the base once a connection is answered.
   */
  delayMs?: number;
  maxDelayMs?: number;
  /**
   * A connection that brings nothing (not even a keep-alive comment) for this long is dropped and
   * reopened: a backend gone without closing the socket (a sleeping laptop, a lost route) would
   * otherwise leave the stream waiting forever. Unset: no limit.
   */
  idleTimeoutMs?: number;
}

/** The reason an idle connection was dropped (`idleTimeoutMs`). */
export class SilentStreamError extends Error {
  override readonly name = "SilentStreamError";
}

// A function, so the check reads the signal at that moment (an abort can happen mid-await).
const aborted = (signal: AbortSignal) => signal.aborted;

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Reads the stream until `signal` aborts, reconnecting with `Last-Event-ID` after a drop so no
 * event is lost. Resolves when aborted; rejects only with an error `isFatal` accepts.
 */
export async function readEventStream(options: StreamOptions): Promise<void> {
  const sleep = options.sleep ?? abortableSleep;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let base = options.delayMs ?? 1_000;
  let delay = base;
  let lastEventId = options.lastEventId;
  while (!options.signal.aborted) {
    const parser = createSseParser(lastEventId);
    let wait = delay;
    // One controller per connection: the idle limit drops this one, `signal` ends them all.
    const connection = new AbortController();
    const stop = () => {
      connection.abort();
    };
    options.signal.addEventListener("abort", stop);
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      if (options.idleTimeoutMs === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        connection.abort(new SilentStreamError("the event stream stayed silent"));
      }, options.idleTimeoutMs);
    };
    try {
      arm();
      const response = await options.fetch(options.request(lastEventId), {
        signal: connection.signal,
      });
      if (!response.ok || !response.body) {
        throw options.toError
          ? await options.toError(response)
          : new Error(`HTTP ${response.status}`);
      }
      options.onStatus?.({ connected: true });
      delay = base;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        arm();
        const events = parser.push(value);
        if (events.length > 0) await options.onEvents(events);
        if (parser.retryMs !== null && parser.retryMs !== base) delay = base = parser.retryMs;
        if (parser.lastEventId !== null && parser.lastEventId !== lastEventId) {
          lastEventId = parser.lastEventId;
          await options.onCursor?.(lastEventId);
        }
      }
      options.onStatus?.({ connected: false });
      // A `retry:` applies at once, dispatched or not: a server ending the stream on purpose
      // (shutdown, stream lifetime) sends one on its own to say when to come back.
      wait = parser.retryMs ?? base;
    } catch (caught) {
      if (aborted(options.signal)) return;
      const reason: unknown = connection.signal.reason;
      const error = reason instanceof SilentStreamError ? reason : caught;
      options.onStatus?.({ connected: false, error });
      if (options.isFatal?.(error)) throw error;
      if (parser.retryMs !== null) base = parser.retryMs;
      wait = Math.min(delay, maxDelay);
      delay = Math.min(Math.max(wait, base) * 2, maxDelay);
    } finally {
      clearTimeout(idle);
      options.signal.removeEventListener("abort", stop);
    }
    lastEventId = parser.lastEventId;
    await sleep(wait, options.signal);
  }
}
