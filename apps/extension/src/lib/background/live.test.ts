import { describe, expect, it } from "vitest";
import { browser } from "wxt/browser";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, task } from "../../testing/fixtures.ts";
import { LIVE_PORT } from "../messages.ts";
import { snapshotItem } from "../storage.ts";
import { POLL_ALARM } from "./poller.ts";
import { eventCursorItem } from "./session-store.ts";

/** An event stream the test writes to; it ends when the request is aborted. */
function eventStream() {
  const opened: Request[] = [];
  let push: (text: string) => void = () => undefined;
  const route = (request: Request) => {
    opened.push(request);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => {
          controller.enqueue(new TextEncoder().encode(text));
        };
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
  };
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
