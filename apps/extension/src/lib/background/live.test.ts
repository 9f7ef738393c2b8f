import { describe, expect, it } from "vitest";
import { browser } from "wxt/browser";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { USER, fakeBackend, json, task } from "../../testing/fixtures.ts";
import { LIVE_PORT } from "../shared/messages.ts";
import { snapshotItem } from "../shared/storage.ts";
import { POLL_ALARM } from "./poller.ts";
import { eventCursorItem } from "./session-store.ts";

/**
 * An event stream the test writes to; it ends when the request is aborted or on `end()`, as the
 * backend's does when it shuts down. `first` is sent on every connection (e.g. a short `retry:`).
 */
function eventStream(first = "") {
  const opened: Request[] = [];
  let push: (text: string) => void = () => undefined;
  let close: () => void = () => undefined;
  const route = (request: Request) => {
    opened.push(request);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => {
          controller.enqueue(new TextEncoder().encode(text));
        };
        close = () => {
          controller.close();
        };
        if (first) push(first);
        request.signal.addEventListener("abort", () => {
          controller.error(new DOMException("aborted", "AbortError"));
        });
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
  };
  return {
    route,
    opened,
    send: (id: number, body: object) => {
      push(`id: ${id}\nevent: task\ndata: ${JSON.stringify(body)}\n\n`);
    },
    /** Any frame, as written. */
    push: (text: string) => {
      push(text);
    },
    end: () => {
      close();
    },
  };
}

/** A view's live Port, recording the connection states the background tells it. */
function openView() {
  const port = browser.runtime.connect({ name: LIVE_PORT });
  const states: unknown[] = [];
  port.onMessage.addListener((message: unknown) => {
    states.push((message as { liveStatus?: unknown }).liveStatus);
  });
  return { port, states, last: () => states.at(-1) };
}

describe("live events while a view is open", () => {
  it("opens the event stream when a view connects and applies each task event", async () => {
    await signedIn({ tasks: [task({ status: "waiting" })] });
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    stream.send(12, task({ status: "in_progress", updated_at: "2025-01-01T10:01:00.000Z" }));
    await expect
      .poll(async () => (await snapshotItem.getValue()).tasks[0]?.status)
      .toBe("in_progress");
    await expect.poll(() => eventCursorItem.getValue()).toBe("12");
  });

  it("catches up with one JSON request, then opens the stream where that left off", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    await eventCursorItem.setValue("7");
    const stream = eventStream();
    const done = task({ status: "success", updated_at: "2025-01-01T10:04:00.000Z" });
    const backend = fakeBackend({
      "GET /api/events": stream.route,
      "GET /api/events/changes": () => json({ tasks: [done], last_event_id: "40", more: false }),
    });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    expect(backend.calls("GET", "/api/events/changes").map((r) => r.url)).toEqual([
      "http://127.0.0.1:8787/api/events/changes?after=7",
    ]);
    expect(stream.opened[0]?.headers.get("Last-Event-ID")).toBe("40");
    expect((await snapshotItem.getValue()).tasks[0]?.status).toBe("success");
    expect(await eventCursorItem.getValue()).toBe("40");
  });

  it("leaves the catching up to the stream's replay when the backend has no changes answer", async () => {
    await signedIn();
    await eventCursorItem.setValue("7");
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    expect(stream.opened[0]?.headers.get("Last-Event-ID")).toBe("7");
  });

  it("asks for a replay of each task's newest event only", async () => {
    await signedIn();
    await eventCursorItem.setValue("7");
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    const request = stream.opened[0];
    expect(new URL(request?.url ?? "").searchParams.get("replay")).toBe("latest");
    expect(request?.headers.get("Last-Event-ID")).toBe("7");
  });

  it("applies a replay of many finished tasks with one read of the quota", async () => {
    const running = Array.from({ length: 30 }, (_, i) =>
      task({ id: `r${i}`, status: "in_progress" }),
    );
    await signedIn({ tasks: running });
    const stream = eventStream();
    const backend = fakeBackend({ "GET /api/events": stream.route });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    const done = "2025-01-01T10:04:00.000Z";
    running.forEach((row, i) => {
      stream.send(100 + i, { ...row, status: "success", updated_at: done });
    });
    await expect.poll(() => eventCursorItem.getValue()).toBe("129");
    await expect.poll(() => backend.calls("GET", "/api/quota").length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(backend.calls("GET", "/api/quota")).toHaveLength(1);
  });

  it("takes a task off the list when its event says it was deleted", async () => {
    await signedIn({ tasks: [task({ status: "success" }), task({ id: "t2", status: "success" })] });
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    const at = "2025-01-01T10:05:00.000Z";
    stream.send(12, task({ status: "success", deleted_at: at, updated_at: at }));
    await expect.poll(() => eventCursorItem.getValue()).toBe("12");
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["t2"]);
  });

  it("drops a task event whose data is no task (an unknown status), and applies the next one", async () => {
    await signedIn({ tasks: [task({ status: "waiting" })] });
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    stream.send(12, { ...task({ id: "t2" }), status: "exploded" });
    stream.send(13, task({ status: "in_progress", updated_at: "2025-01-01T10:01:00.000Z" }));
    await expect.poll(() => eventCursorItem.getValue()).toBe("13");
    const { tasks } = await snapshotItem.getValue();
    expect(tasks.map((t) => [t.id, t.status])).toEqual([[task().id, "in_progress"]]);
  });

  it("resumes from the stored Last-Event-ID after the background restarts", async () => {
    await signedIn();
    await eventCursorItem.setValue("41");
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    expect(stream.opened[0]?.headers.get("Last-Event-ID")).toBe("41");
    expect(stream.opened[0]?.headers.get("Authorization")).toBe("Bearer ovs_token");
  });

  it("closes the stream when the last view goes, leaving the work to the alarm", async () => {
    await signedIn();
    const stream = eventStream();
    const { live } = startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    const first = browser.runtime.connect({ name: LIVE_PORT });
    const second = browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    first.disconnect();
    expect(live.isLive()).toBe(true);
    second.disconnect();
    expect(live.isLive()).toBe(false);
    expect(stream.opened[0]?.signal.aborted).toBe(true);
  });

  it("skips the alarm's backend check while the stream is open", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const stream = eventStream();
    const backend = fakeBackend({ "GET /api/events": stream.route });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    await fakeBrowser.alarms.onAlarm.trigger({ name: POLL_ALARM, scheduledTime: Date.now() });
    expect(backend.calls("GET", "/api/tasks/t1")).toHaveLength(0);
  });

  it("does not open a stream for a person who is signed out", async () => {
    const stream = eventStream();
    const { live } = startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => live.isLive()).toBe(false);
    expect(stream.opened).toHaveLength(0);
  });
});

describe("the connection state each open view is told", () => {
  it("says connecting, then live once the stream is open", async () => {
    await signedIn();
    const stream = eventStream();
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    const view = openView();
    await expect.poll(() => view.last()).toBe("live");
    expect(view.states[0]).toBe("connecting");
  });

  it("says reconnecting soon after the backend goes away, and live again when it is back", async () => {
    await signedIn({ tasks: [task({ status: "in_progress" })] });
    const stream = eventStream("retry: 10\n\n");
    const backend = fakeBackend({ "GET /api/events": stream.route });
    startTestBackground(backend);
    const view = openView();
    await expect.poll(() => view.last()).toBe("live");
    backend.down();
    stream.end();
    await expect.poll(() => view.last()).toBe("reconnecting");
    await expect.poll(async () => (await snapshotItem.getValue()).connectivity).toBe("unreachable");
    expect((await snapshotItem.getValue()).tasks).toHaveLength(1);
    backend.up();
    await expect.poll(() => view.last(), { timeout: 5_000 }).toBe("live");
    await expect.poll(async () => (await snapshotItem.getValue()).connectivity).toBe("online");
  });

  it("resumes after the last event it applied and re-reads the state once back", async () => {
    await signedIn();
    const stream = eventStream("retry: 10\n\n");
    const backend = fakeBackend({ "GET /api/events": stream.route });
    startTestBackground(backend);
    const view = openView();
    await expect.poll(() => view.last()).toBe("live");
    stream.send(7, task({ status: "in_progress", updated_at: "2025-01-01T10:01:00.000Z" }));
    await expect.poll(() => eventCursorItem.getValue()).toBe("7");
    const refreshes = backend.calls("GET", "/api/me").length;
    backend.down();
    stream.end();
    await expect.poll(() => view.last()).toBe("reconnecting");
    backend.up();
    await expect.poll(() => view.last(), { timeout: 5_000 }).toBe("live");
    expect(stream.opened.at(-1)?.headers.get("Last-Event-ID")).toBe("7");
    await expect.poll(() => backend.calls("GET", "/api/me").length).toBeGreaterThan(refreshes);
  });

  it("keeps saying live across a clean end the server asked to come back from", async () => {
    await signedIn();
    const stream = eventStream("retry: 10\n\n");
    startTestBackground(fakeBackend({ "GET /api/events": stream.route }));
    const view = openView();
    await expect.poll(() => view.last()).toBe("live");
    stream.end();
    await expect.poll(() => stream.opened.length).toBe(2);
    expect(view.states).not.toContain("reconnecting");
  });

  it("ends with 'session expired', keeping who was signed in, when the session is gone", async () => {
    await signedIn();
    const stream = eventStream("retry: 10\n\n");
    let known = true;
    const backend = fakeBackend({
      "GET /api/events": (request) =>
        known ? stream.route(request) : json({ error: "unauthenticated", message: "x" }, 401),
    });
    const { live } = startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    known = false;
    stream.end();
    await expect.poll(() => live.isLive()).toBe(false);
    expect(await snapshotItem.getValue()).toMatchObject({ auth: "expired", user: USER });
  });
});

// Issue 34: a position the backend cannot resume from (newer than its newest event after a
// restore from a backup, or older than what it keeps) comes back as a reset: the whole list is
// read again and the stream resumes from the position the backend gives.
describe("a reset from the backend", () => {
  const known = task({ id: "gone", status: "success", title: "known before the restore" });
  const kept = task({ id: "kept", status: "success", updated_at: "2025-01-01T10:03:00.000Z" });

  it("reloads the whole list when the catch-up answers a reset, and resumes from its position", async () => {
    await signedIn({ tasks: [known] });
    await eventCursorItem.setValue("99999");
    const stream = eventStream();
    const backend = fakeBackend({
      "GET /api/events": stream.route,
      "GET /api/events/changes": () =>
        json({
          tasks: [],
          last_event_id: "12",
          more: false,
          reset: "ahead_of_server",
          // A field this build does not know is no reason to refuse the answer.
          hint: "restored from a backup",
        }),
      "GET /api/tasks": () => json({ tasks: [kept], next_cursor: null }),
    });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    expect(stream.opened[0]?.headers.get("Last-Event-ID")).toBe("12");
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["kept"]);
    expect(await eventCursorItem.getValue()).toBe("12");
  });

  it("applies the catch-up's tasks as usual when it answers no reset", async () => {
    await signedIn({ tasks: [known] });
    await eventCursorItem.setValue("7");
    const stream = eventStream();
    const backend = fakeBackend({
      "GET /api/events": stream.route,
      "GET /api/events/changes": () => json({ tasks: [kept], last_event_id: "12", more: false }),
    });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id).sort()).toEqual(["gone", "kept"]);
    expect(backend.calls("GET", "/api/tasks")).toHaveLength(0);
  });

  it("reloads the whole list on a reset frame of the stream, then saves the frame's id", async () => {
    await signedIn({ tasks: [known] });
    const stream = eventStream();
    let reloaded = 0;
    const backend = fakeBackend({
      "GET /api/events": stream.route,
      "GET /api/tasks": () => {
        reloaded++;
        return json({ tasks: [kept], next_cursor: null });
      },
    });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    stream.push(
      'id: 3\nevent: reset\ndata: {"reason":"older_than_retention","last_event_id":"3","more":1}\n\n',
    );
    await expect.poll(() => eventCursorItem.getValue()).toBe("3");
    expect(reloaded).toBe(1);
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["kept"]);
    // The stream goes on after it: the next task event is applied as any other.
    stream.send(4, task({ id: "new", status: "waiting", updated_at: "2025-01-01T10:04:00.000Z" }));
    await expect
      .poll(async () => (await snapshotItem.getValue()).tasks.map((t) => t.id))
      .toEqual(["new", "kept"]);
  });

  it("treats a reset frame whose data is no JSON as a reset all the same", async () => {
    await signedIn({ tasks: [known] });
    const stream = eventStream();
    const backend = fakeBackend({
      "GET /api/events": stream.route,
      "GET /api/tasks": () => json({ tasks: [kept], next_cursor: null }),
    });
    startTestBackground(backend);
    browser.runtime.connect({ name: LIVE_PORT });
    await expect.poll(() => stream.opened.length).toBe(1);
    stream.push("id: 5\nevent: reset\ndata: not json\n\n");
    await expect.poll(() => eventCursorItem.getValue()).toBe("5");
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["kept"]);
  });
});
