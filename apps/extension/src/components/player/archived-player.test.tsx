import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { memoryCacheStorage } from "../../testing/cache-storage.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { App } from "../app.tsx";

const BACKEND = "http://127.0.0.1:8787";
const FILES = "http://127.0.0.1:4010/files/";
const DURATION = 240;

const archived = (n: number) => {
  const base = `${BACKEND}/api/tasks/t${n}`;
  return task({
    id: `t${n}`,
    status: "success",
    params: { prompt: `track ${n}` },
    file_url: `${FILES}${n}.wav`,
    file_expires_at: "2099-01-01T00:00:00.000Z",
    finished_at: "2025-01-01T10:02:00.000Z",
    audio_url: `${base}/audio`,
    archive: {
      status: "archived",
      error: null,
      audio_url: `${base}/audio`,
      mp3_url: `${base}/audio?format=mp3`,
      peaks_url: `${base}/peaks`,
    },
  });
};
// The case: a list of 50 finished, archived tracks.
const TASKS = Array.from({ length: 50 }, (_, i) => archived(i + 1));

/** 8-bit audiowaveform peaks as the backend answers them: 1000 (min, max) pairs. */
const PEAKS = {
  version: 2,
  channels: 1,
  sample_rate: 44_100,
  samples_per_pixel: Math.round((DURATION * 44_100) / 1000),
  bits: 8,
  length: 1000,
  duration_seconds: DURATION,
  data: Array.from({ length: 2000 }, (_, i) => (i % 2 ? 64 : -64)),
};

/** The backend with peaks and media links; the platform's files; every request recorded. */
function archiveBackend(publicUrl = BACKEND) {
  let links = 0;
  const backend = fakeBackend({
    "GET /api/tasks": () => json({ tasks: TASKS, next_cursor: null }),
  });
  const fetch = backend.fetch;
  backend.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.url.startsWith(FILES) || path.endsWith("/audio")) {
      backend.requests.push(request);
      return Promise.resolve(new Response(new Uint8Array(100_000), { status: 200 }));
    }
    if (/^\/api\/tasks\/t\d+\/peaks$/.test(path)) {
      backend.requests.push(request);
      return Promise.resolve(json(PEAKS));
    }
    if (request.method === "POST" && /^\/api\/tasks\/t\d+\/media-link$/.test(path)) {
      backend.requests.push(request);
      return Promise.resolve(
        json({
          url: `${publicUrl}/media/token-${++links}`,
          expires_at: "2025-01-01T16:05:00.000Z",
        }),
      );
    }
    return fetch(input, init);
  };
  const pathsOf = (pattern: RegExp) =>
    backend.requests.map((r) => new URL(r.url).pathname).filter((p) => pattern.test(p));
  return {
    backend,
    /** Requests that carried audio: the platform's files and the backend's archive. */
    audio: () => pathsOf(/^\/files\/|\/audio$/),
    peaks: () => pathsOf(/\/peaks$/),
    mediaLinks: () =>
      backend.requests
        .filter((r) => r.method === "POST" && r.url.includes("/media-link"))
        .map((r) => r.url),
  };
}

/** An IntersectionObserver that reports `onScreen` elements visible as soon as they are observed. */
function stubVisibility(onScreen: (element: Element) => boolean) {
  const observers: { callback: IntersectionObserverCallback; elements: Element[] }[] = [];
  class FakeObserver {
    private readonly entry: { callback: IntersectionObserverCallback; elements: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, elements: [] };
      observers.push(this.entry);
    }
    observe(element: Element) {
      this.entry.elements.push(element);
      if (onScreen(element))
        this.entry.callback(
          [{ isIntersecting: true, target: element } as unknown as IntersectionObserverEntry],
          this as unknown as IntersectionObserver,
        );
    }
    disconnect() {
      this.entry.elements = [];
    }
  }
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  return {
    /** Scrolls `element` into view. */
    show(element: Element) {
      for (const observer of observers)
        if (observer.elements.includes(element))
          observer.callback(
            [{ isIntersecting: true, target: element } as unknown as IntersectionObserverEntry],
            observer as unknown as IntersectionObserver,
          );
    },
  };
}

function stubMedia() {
  const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined);
  return { play };
}

/** The side panel, whose rows draw their waveforms inline (the popup keeps to one row each). */
async function openTaskList() {
  const view = render(<App surface="sidepanel" />);
  fireEvent.click(await screen.findByRole("tab", { name: /Tasks/ }, { timeout: 5_000 }));
  await expect.poll(() => screen.queryAllByTestId("play").length).toBe(TASKS.length);
  return view;
}

function card(id: string): HTMLElement {
  const item = document.querySelector<HTMLElement>(`li.task[data-task-id="${id}"]`);
  if (!item) throw new Error(`no task ${id} in the list`);
  return item;
}
const playerState = () => document.querySelector(".mini-player")?.getAttribute("data-state");
const drawnWaveforms = () =>
  document.querySelectorAll('[data-testid="card-waveform"] canvas[data-state="drawn"]').length;

describe("archived tracks: waveforms from the stored peaks, play streams the MP3", () => {
  it("opens a list of 50 archived tracks with 0 audio bytes: peaks, and media links for the rows on screen", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    const onScreen = new Set(["t1", "t2", "t3"]);
    stubVisibility((element) => onScreen.has(element.getAttribute("data-task-id") ?? ""));
    stubMedia();
    await openTaskList();
    await expect.poll(drawnWaveforms).toBe(3);
    expect(calls.peaks()).toHaveLength(3);
    // Play then starts from a link it has: the visible rows' links are asked for (no audio).
    await expect.poll(() => calls.mediaLinks().length).toBe(3);
    expect(
      calls
        .mediaLinks()
        .map((url) => new URL(url).pathname)
        .sort(),
    ).toEqual(["/api/tasks/t1/media-link", "/api/tasks/t2/media-link", "/api/tasks/t3/media-link"]);
    expect(calls.audio()).toEqual([]);
    expect(document.querySelectorAll("audio")).toHaveLength(0);
  });

  it("plays from the link prepared for a visible row: the click asks nothing more", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    stubVisibility((element) => element.getAttribute("data-task-id") === "t2");
    stubMedia();
    await openTaskList();
    await expect.poll(() => calls.mediaLinks().length).toBe(1);
    fireEvent.click(within(card("t2")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    expect(document.querySelector("audio")?.getAttribute("src")).toBe(`${BACKEND}/media/token-1`);
    expect(calls.mediaLinks()).toHaveLength(1);
  });

  it("asks for the waveforms of the cards on screen only, and the next ones as they come", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    const onScreen = new Set(["t1", "t2", "t3"]);
    const visibility = stubVisibility((element) =>
      onScreen.has(element.closest("li")?.getAttribute("data-task-id") ?? ""),
    );
    stubMedia();
    await openTaskList();
    await expect.poll(drawnWaveforms).toBe(3);
    expect(calls.peaks()).toEqual([
      "/api/tasks/t1/peaks",
      "/api/tasks/t2/peaks",
      "/api/tasks/t3/peaks",
    ]);
    visibility.show(
      within(card("t4")).getByTestId("card-waveform").closest(".player") ?? card("t4"),
    );
    await expect.poll(drawnWaveforms).toBe(4);
    expect(calls.peaks()).toHaveLength(4);
  });

  it("keeps fetched waveforms: a view opened later asks the network for none", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend, undefined, memoryCacheStorage());
    stubVisibility(() => true);
    stubMedia();
    const first = await openTaskList();
    await expect.poll(drawnWaveforms).toBe(50);
    first.unmount();
    const { forgetWaveforms } = await import("../../lib/views/use-waveform.ts");
    forgetWaveforms();
    await openTaskList();
    await expect.poll(drawnWaveforms).toBe(50);
    expect(calls.peaks()).toHaveLength(50);
  });

  it("plays by setting a media link as the <audio> source: no audio through the background", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    stubVisibility(() => false);
    const { play } = stubMedia();
    const connect = vi.spyOn(fakeBrowser.runtime, "connect");
    await openTaskList();
    fireEvent.click(within(card("t2")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    const audio = document.querySelector("audio");
    expect(audio?.getAttribute("src")).toBe(`${BACKEND}/media/token-1`);
    expect(document.querySelector(".mini-player")?.getAttribute("data-mode")).toBe("stream");
    expect(calls.mediaLinks()).toEqual([`${BACKEND}/api/tasks/t2/media-link?format=mp3`]);
    expect(connect.mock.calls.filter(([info]) => info?.name === "overture/audio")).toEqual([]);
    expect(calls.audio()).toEqual([]);
    await expect.poll(() => play.mock.calls.length).toBe(1);
    // The mini-player draws the same stored waveform.
    await expect
      .poll(() =>
        document
          .querySelector('[data-testid="player-waveform"] canvas')
          ?.getAttribute("data-state"),
      )
      .toBe("drawn");
  });

  it("reuses the media link when the track is played again (the browser's media cache answers)", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    stubVisibility(() => false);
    stubMedia();
    await openTaskList();
    for (const id of ["t1", "t2", "t1"]) {
      fireEvent.click(within(card(id)).getByTestId("play"));
      await expect
        .poll(() => document.querySelector(".mini-player")?.getAttribute("data-task-id"))
        .toBe(id);
      await expect.poll(playerState).toBe("ready");
    }
    expect(calls.mediaLinks()).toHaveLength(2);
    expect(document.querySelector("audio")?.getAttribute("src")).toBe(`${BACKEND}/media/token-1`);
  });

  it("asks for the media link when the pointer reaches Play, once, and the click uses it", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    stubVisibility(() => false);
    stubMedia();
    await openTaskList();
    const play = within(card("t4")).getByTestId("play");
    fireEvent.pointerEnter(play);
    fireEvent.click(play);
    await expect.poll(playerState).toBe("ready");
    expect(calls.mediaLinks()).toEqual([`${BACKEND}/api/tasks/t4/media-link?format=mp3`]);
    expect(calls.audio()).toEqual([]);
  });

  it("plays a media link the backend built from another address at the address it is reached on", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend("https://music.example.org");
    startTestBackground(calls.backend);
    stubVisibility(() => false);
    stubMedia();
    await openTaskList();
    fireEvent.click(within(card("t6")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    expect(document.querySelector("audio")?.getAttribute("src")).toBe(`${BACKEND}/media/token-1`);
  });

  it("seeks where the card's waveform is clicked, starting the track there", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    stubVisibility(() => true);
    stubMedia();
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockReturnValue({
      left: 0,
      width: 200,
      top: 0,
      height: 40,
    } as DOMRect);
    await openTaskList();
    const waveform = within(card("t5")).getByTestId("card-waveform");
    fireEvent.click(waveform, { clientX: 50 });
    await expect.poll(playerState).toBe("ready");
    const audio = document.querySelector("audio");
    if (!audio) throw new Error("no audio element");
    Object.defineProperty(audio, "duration", { configurable: true, value: DURATION });
    fireEvent.loadedMetadata(audio);
    expect(audio.currentTime).toBe(60);
    // The card shows the playhead where the track is.
    expect(waveform.getAttribute("aria-valuenow")).toBe("25");
    expect(waveform.querySelector(".playhead")).not.toBeNull();
    // A second click seeks the playing track directly.
    fireEvent.click(waveform, { clientX: 150 });
    expect(audio.currentTime).toBe(180);
    // One link per track (every row here is on screen and prepared its own), none asked twice.
    expect(new Set(calls.mediaLinks()).size).toBe(calls.mediaLinks().length);
    expect(calls.audio()).toEqual([]);
  });

  it("says so when the browser cannot play the streamed source, and Play tries again", async () => {
    await signedIn({ tasks: TASKS });
    const calls = archiveBackend();
    startTestBackground(calls.backend);
    stubVisibility(() => false);
    const { play } = stubMedia();
    await openTaskList();
    fireEvent.click(within(card("t3")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    const audio = document.querySelector("audio");
    if (!audio) throw new Error("no audio element");
    Object.defineProperty(audio, "error", { configurable: true, value: { code: 4, message: "" } });
    fireEvent.error(audio);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The audio could not be loaded: the browser could not play it (media error 4)",
    );
    fireEvent.click(within(card("t3")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    await expect.poll(() => play.mock.calls.length).toBe(2);
  });
});
