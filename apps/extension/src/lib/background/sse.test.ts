import { describe, expect, it, vi } from "vitest";
import { createSseParser, readEventStream, type SseEvent } from "./sse.ts";

describe("event-stream parser", () => {
  it("dispatches an event at a blank line with its id, type and data", () => {
    const parser = createSseParser();
    expect(parser.push('id: 7\nevent: task\ndata: {"id":"t1"}\n\n')).toEqual([
      { id: "7", event: "task", data: '{"id":"t1"}' },
    ]);
    expect(parser.lastEventId).toBe("7");
  });

  it("joins several data lines with a line feed", () => {
    expect(createSseParser().push("data: a\ndata: b\n\n")).toEqual([
      { id: null, event: "message", data: "a\nb" },
    ]);
  });

  it("completes events split across chunks, including a CRLF split between chunks", () => {
    const parser = createSseParser();
    expect(parser.push("id: 1\r\nevent: ta")).toEqual([]);
    expect(parser.push("sk\r\ndata: x\r")).toEqual([]);
    expect(parser.push("\n\r\n")).toEqual([{ id: "1", event: "task", data: "x" }]);
  });

  it("ignores comment lines (keep-alives)", () => {
    expect(createSseParser().push(": ping\n\n")).toEqual([]);
  });

  it("keeps an id sent without data for the next resume, without dispatching", () => {
    const parser = createSseParser("3");
    expect(parser.push("id: 4\n\n")).toEqual([]);
    expect(parser.lastEventId).toBe("4");
  });

  it("reads a numeric retry and ignores a malformed one", () => {
    const parser = createSseParser();
    parser.push("retry: 2500\n");
    parser.push("retry: soon\n");
    expect(parser.retryMs).toBe(2500);
  });

  it("treats a value-less field as empty and strips one leading space only", () => {
    expect(createSseParser().push("data\ndata:  two\n\n")).toEqual([
      { id: null, event: "message", data: "\n two" },
    ]);
  });
});

function streamOf(...chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

describe("reading the event stream", () => {
  const request = (lastEventId: string | null) =>
    new Request("http://127.0.0.1:8787/api/events", {
      headers: lastEventId ? { "Last-Event-ID": lastEventId } : {},
    });

  it("reconnects after a drop with the last event id, so no event is lost", async () => {
    const controller = new AbortController();
    const seen: SseEvent[] = [];
    const sent: (string | null)[] = [];
    const responses = [
      streamOf("id: 1\nevent: task\ndata: a\n\n"),
      streamOf("id: 2\nevent: task\ndata: b\n\n"),
    ];
    const fetch = vi.fn((input: RequestInfo | URL) => {
      sent.push(new Request(input).headers.get("Last-Event-ID"));
      const next = responses.shift();
      if (!next) {
        controller.abort();
        return Promise.reject(new DOMException("aborted", "AbortError"));
      }
      return Promise.resolve(next);
    });
    await readEventStream({
      request,
      fetch: fetch,
      lastEventId: null,
      signal: controller.signal,
      onEvents: (events) => void seen.push(...events),
      sleep: () => Promise.resolve(),
    });
    expect(seen.map((e) => e.data)).toEqual(["a", "b"]);
    expect(sent).toEqual([null, "1", "2"]);
  });

  it("resumes from the stored id on its first connection", async () => {
    const controller = new AbortController();
    const fetch = vi.fn((input: RequestInfo | URL) => {
      controller.abort();
      return Promise.resolve(
        new Response("", {
          status: 200,
          headers: { "X-Id": new Request(input).headers.get("Last-Event-ID") ?? "" },
        }),
      );
    });
    await readEventStream({
      request,
      fetch: fetch,
      lastEventId: "41",
      signal: controller.signal,
      onEvents: () => undefined,
      sleep: () => Promise.resolve(),
    });
    const first = fetch.mock.calls[0]?.[0];
    expect(new Request(first ?? "http://x").headers.get("Last-Event-ID")).toBe("41");
  });

  it("stops with the error when the failure is fatal (the session is gone)", async () => {
    const fatal = new Error("unauthenticated");
    const fetch = vi.fn(() => Promise.resolve(new Response("{}", { status: 401 })));
    await expect(
      readEventStream({
        request,
        fetch: fetch,
        lastEventId: null,
        signal: new AbortController().signal,
        onEvents: () => undefined,
        toError: () => Promise.resolve(fatal),
        isFatal: (error) => error === fatal,
        sleep: () => Promise.resolve(),
      }),
    ).rejects.toBe(fatal);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("backs off, doubling the wait after each failed connection", async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    const fetch = vi.fn(() => Promise.reject(new TypeError("Failed to fetch")));
    await readEventStream({
      request,
      fetch: fetch,
      lastEventId: null,
      signal: controller.signal,
      onEvents: () => undefined,
      delayMs: 100,
      sleep: (ms) => {
        waits.push(ms);
        if (waits.length === 3) controller.abort();
        return Promise.resolve();
      },
    });
    expect(waits).toEqual([100, 200, 400]);
  });

  it("waits the retry a server sends on its own before ending the stream (a shutdown)", async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    await readEventStream({
      request,
      fetch: () => Promise.resolve(streamOf(": shutting down\nretry: 1000\n\n")),
      lastEventId: null,
      signal: controller.signal,
      onEvents: () => undefined,
      delayMs: 3_000,
      sleep: (ms) => {
        waits.push(ms);
        controller.abort();
        return Promise.resolve();
      },
    });
    expect(waits).toEqual([1_000]);
  });
});

describe("a silent or failing stream", () => {
  const request = () => new Request("http://127.0.0.1:8787/api/events");
  /** A stream that sends `text` and then nothing, ending only when its request is aborted. */
  const hanging = (request: Request, text: string) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          const abort = () => {
            controller.error(new DOMException("aborted", "AbortError"));
          };
          controller.enqueue(new TextEncoder().encode(text));
          if (request.signal.aborted) abort();
          else request.signal.addEventListener("abort", abort);
        },
      }),
    );

  it("drops a connection that stays silent past the idle limit and reconnects", async () => {
    const controller = new AbortController();
    const statuses: { connected: boolean; error?: unknown }[] = [];
    let opened = 0;
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      opened += 1;
      if (opened === 2) controller.abort();
      return Promise.resolve(hanging(new Request(input, init), ": hello\n\n"));
    };
    await readEventStream({
      request,
      fetch,
      lastEventId: null,
      signal: controller.signal,
      onEvents: () => undefined,
      onStatus: (status) => void statuses.push(status),
      idleTimeoutMs: 20,
      sleep: () => Promise.resolve(),
    });
    expect(opened).toBe(2);
    expect(statuses[0]).toEqual({ connected: true });
    expect(statuses[1]?.connected).toBe(false);
    expect(statuses[1]?.error).toBeInstanceOf(Error);
  });

  it("keeps the server's retry for the waits after failed connections too", async () => {
    const controller = new AbortController();
    const waits: number[] = [];
    let calls = 0;
    const fetch = () => {
      calls += 1;
      return calls === 1
        ? Promise.resolve(streamOf("retry: 50\n\n"))
        : Promise.reject(new TypeError("Failed to fetch"));
    };
    await readEventStream({
      request,
      fetch,
      lastEventId: null,
      signal: controller.signal,
      onEvents: () => undefined,
      delayMs: 3_000,
      maxDelayMs: 150,
      sleep: (ms) => {
        waits.push(ms);
        if (waits.length === 4) controller.abort();
        return Promise.resolve();
      },
    });
    expect(waits).toEqual([50, 50, 100, 150]);
  });
});

describe("the resume position", () => {
  it("moves on an id sent without data (the stream's ready frame) and after each event", async () => {
    const controller = new AbortController();
    const cursors: string[] = [];
    const fetch: typeof globalThis.fetch = () => {
      controller.abort();
      return Promise.resolve(
        streamOf("retry: 3000\nevent: ready\nid: 90\n\n", "id: 91\nevent: task\ndata: {}\n\n"),
      );
    };
    await readEventStream({
      request: () => new Request("http://127.0.0.1:8787/api/events"),
      fetch,
      lastEventId: null,
      signal: controller.signal,
      onEvents: () => undefined,
      onCursor: (id) => void cursors.push(id),
      sleep: () => Promise.resolve(),
    });
    expect(cursors).toEqual(["90", "91"]);
  });
});
