import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { memoryCacheStorage } from "../../testing/cache-storage.ts";
import { fakeBackend, task } from "../../testing/fixtures.ts";
import { mergeTasks } from "../../lib/shared/snapshot.ts";
import { App } from "../app.tsx";

const FILES = "http://127.0.0.1:4010/files/";
const finished = (n: number) =>
  task({
    id: `t${n}`,
    status: "success",
    params: { prompt: `track ${n}` },
    file_url: `${FILES}${n}.wav`,
    file_expires_at: "2099-01-01T00:00:00.000Z",
    finished_at: "2025-01-01T10:02:00.000Z",
  });
// The case: a list of 50 finished tracks.
const TASKS = Array.from({ length: 50 }, (_, i) => finished(i + 1));

/** The backend plus the platform's files; every request to either is recorded. */
function backendWithFiles(size = 1_200_000) {
  const backend = fakeBackend({
    "GET /api/tasks": () =>
      new Response(JSON.stringify({ tasks: TASKS, next_cursor: null }), {
        headers: { "Content-Type": "application/json" },
      }),
    "GET /api/tasks/t1/audio": () =>
      new Response(new Uint8Array(4_000).fill(3), { headers: { "Content-Type": "audio/wav" } }),
  });
  const fetch = backend.fetch;
  backend.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new Request(input, init).url;
    if (!url.startsWith(FILES)) return fetch(input, init);
    backend.requests.push(new Request(url));
    return Promise.resolve(
      new Response(new Uint8Array(size).fill(7), {
        headers: { "Content-Type": "audio/wav", "Content-Length": String(size) },
      }),
    );
  };
  /** Requests that carried audio: the platform's files and the backend's archive. */
  const audioRequests = () =>
    backend.requests.filter((r) => r.url.startsWith(FILES) || r.url.endsWith("/audio"));
  return { backend, audioRequests };
}

class FakeOfflineAudioContext {
  decodeAudioData(data: ArrayBuffer) {
    const samples = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i / 10));
    return Promise.resolve({
      byteLength: data.byteLength,
      numberOfChannels: 1,
      getChannelData: () => samples,
    });
  }
}

/** Opens the view on its task list and waits until every finished track is listed. */
async function openTaskList() {
  const view = render(<App surface="popup" />);
  fireEvent.click(await screen.findByRole("tab", { name: /Tasks/ }, { timeout: 5_000 }));
  await expect.poll(() => screen.queryAllByTestId("play").length).toBe(TASKS.length);
  return view;
}

function card(id: string): HTMLElement {
  const item = document.querySelector<HTMLElement>(`li.task[data-task-id="${id}"]`);
  if (!item) throw new Error(`no task ${id} in the list`);
  return item;
}
function theAudio(): HTMLAudioElement {
  const audio = document.querySelector("audio");
  if (!audio) throw new Error("no audio element");
  return audio;
}
const playerState = () => document.querySelector(".mini-player")?.getAttribute("data-state");

function stubMedia() {
  vi.stubGlobal("OfflineAudioContext", FakeOfflineAudioContext);
  let count = 0;
  const blobs: Blob[] = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:overture/${++count}`;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  const play = vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  return Object.assign(blobs, { play });
}

describe("listening without waste", () => {
  it("transfers no audio when a list of 50 finished tracks opens, and has no player yet", async () => {
    await signedIn({ tasks: TASKS });
    const { backend, audioRequests } = backendWithFiles();
    startTestBackground(backend);
    stubMedia();
    await openTaskList();
    // The view asked the backend for its state: the count below is not zero by accident.
    await expect.poll(() => backend.calls("GET", "/api/me").length).toBeGreaterThan(0);
    expect(audioRequests()).toEqual([]);
    expect(document.querySelectorAll("audio")).toHaveLength(0);
  });

  it("fetches a track once when play is pressed, into the view's one player", async () => {
    await signedIn({ tasks: TASKS });
    const { backend, audioRequests } = backendWithFiles();
    startTestBackground(backend);
    const blobs = stubMedia();
    await openTaskList();
    fireEvent.click(within(card("t2")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    expect(audioRequests().map((r) => r.url)).toEqual([`${FILES}2.wav`]);
    expect(blobs[0]?.size).toBe(1_200_000);
    // Play was the request to play: no second click.
    await expect.poll(() => blobs.play.mock.calls.length).toBe(1);
    const audios = document.querySelectorAll("audio");
    expect(audios).toHaveLength(1);
    expect(audios[0]?.getAttribute("src")).toBe("blob:overture/1");
    expect(document.querySelector(".mini-player .title")?.textContent).toBe("track 2");
    await expect
      .poll(() => document.querySelector("canvas.waveform")?.getAttribute("data-state"))
      .toBe("drawn");
  });

  it("plays a track again from the background's cache, even in a view opened later", async () => {
    await signedIn({ tasks: TASKS });
    const { backend, audioRequests } = backendWithFiles();
    startTestBackground(backend, undefined, memoryCacheStorage());
    stubMedia();
    const first = await openTaskList();
    fireEvent.click(within(card("t3")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    first.unmount();

    await openTaskList();
    fireEvent.click(within(card("t3")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    expect(audioRequests()).toHaveLength(1);
  });

  it("switches the one player to another track and back without a new request", async () => {
    await signedIn({ tasks: TASKS });
    const { backend, audioRequests } = backendWithFiles(2_000);
    startTestBackground(backend);
    stubMedia();
    await openTaskList();
    for (const id of ["t1", "t4", "t1"]) {
      fireEvent.click(within(card(id)).getByTestId("play"));
      await expect
        .poll(() => document.querySelector(".mini-player")?.getAttribute("data-task-id"))
        .toBe(id);
      await expect.poll(playerState).toBe("ready");
    }
    expect(audioRequests().map((r) => r.url)).toEqual([`${FILES}1.wav`, `${FILES}4.wav`]);
    expect(document.querySelectorAll("audio")).toHaveLength(1);
  });

  it("pauses and resumes the current track from its card", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    const pause = vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined);
    await openTaskList();
    const play = within(card("t1")).getByTestId("play");
    fireEvent.click(play);
    await expect.poll(playerState).toBe("ready");
    fireEvent.play(theAudio());
    await expect.poll(() => play.getAttribute("aria-label")).toBe("Pause: track 1");
    // Its name says what a press does; "pressed" as well would read "Pause …, pressed".
    expect(play.hasAttribute("aria-pressed")).toBe(false);
    Object.defineProperty(theAudio(), "paused", { value: false });
    fireEvent.click(play);
    expect(pause).toHaveBeenCalled();
  });

  it("says the waveform could not be drawn when the audio does not decode", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    vi.stubGlobal(
      "OfflineAudioContext",
      class {
        decodeAudioData = () => Promise.reject(new Error("bad data"));
      },
    );
    await openTaskList();
    fireEvent.click(within(card("t1")).getByTestId("play"));
    expect(await screen.findByText("The waveform could not be drawn.")).toBeTruthy();
  });

  it("plays the archived copy when the platform's link no longer serves the file", async () => {
    const archived = { ...finished(1), audio_url: "http://127.0.0.1:8787/api/tasks/t1/audio" };
    await signedIn({ tasks: [archived] });
    const { backend } = backendWithFiles();
    const fetch = backend.fetch;
    backend.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
      new Request(input, init).url.startsWith(FILES)
        ? Promise.resolve(new Response("gone", { status: 410 }))
        : fetch(input, init);
    startTestBackground(backend);
    const blobs = stubMedia();
    render(<App surface="popup" />);
    fireEvent.click(await screen.findByRole("tab", { name: /Tasks/ }, { timeout: 5_000 }));
    fireEvent.click(await screen.findByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    expect(blobs[0]?.size).toBe(4_000);
  });

  it("closes the player", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    await openTaskList();
    fireEvent.click(within(card("t1")).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    fireEvent.click(screen.getByRole("button", { name: "Close the player" }));
    expect(document.querySelector(".mini-player")).toBeNull();
  });
});

describe("the player bar", () => {
  /** Plays `id` until the bar is ready, with a length of `seconds`. */
  async function playing(id: string, seconds = 100) {
    fireEvent.click(within(card(id)).getByTestId("play"));
    await expect.poll(playerState).toBe("ready");
    Object.defineProperty(theAudio(), "duration", { configurable: true, value: seconds });
    fireEvent.play(theAudio());
    fireEvent.loadedMetadata(theAudio());
    const bar = document.querySelector<HTMLElement>(".mini-player");
    if (!bar) throw new Error("no player bar");
    return bar;
  }

  it("shows no browser controls, and names nothing of it a waveform", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    await openTaskList();
    const bar = await playing("t1");
    expect(theAudio().controls).toBe(false);
    expect(theAudio().getAttribute("aria-label")).toBeNull();
    const names = [...bar.querySelectorAll("[aria-label]")].map((e) =>
      e.getAttribute("aria-label"),
    );
    expect(names.filter((name) => /waveform/i.test(name ?? ""))).toEqual([]);
    expect(within(bar).getByRole("slider", { name: "Position in track 1" })).toBeTruthy();
    expect(within(bar).getByRole("button", { name: "Pause: track 1" })).toBeTruthy();
  });

  it("plays and pauses with Space from anywhere in the bar but its buttons", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    const pause = vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined);
    await openTaskList();
    const bar = await playing("t1");
    Object.defineProperty(theAudio(), "paused", { configurable: true, value: false });
    pause.mockClear();
    fireEvent.keyDown(within(bar).getByRole("slider"), { key: " " });
    expect(pause).toHaveBeenCalledTimes(1);
    // A button's own Space presses the button: the bar does not toggle on top of it.
    fireEvent.keyDown(within(bar).getByRole("button", { name: "Close the player" }), { key: " " });
    expect(pause).toHaveBeenCalledTimes(1);
  });

  it("moves 5 s with the arrow keys", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    await openTaskList();
    const bar = await playing("t1", 100);
    theAudio().currentTime = 50;
    fireEvent.timeUpdate(theAudio());
    fireEvent.keyDown(bar.querySelector(".title") ?? bar, { key: "ArrowRight" });
    expect(theAudio().currentTime).toBeCloseTo(55);
    fireEvent.keyDown(within(bar).getByRole("slider"), { key: "ArrowLeft" });
    expect(theAudio().currentTime).toBeCloseTo(50);
  });

  it("goes to the start and the end of the track with Home and End on its slider", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    await openTaskList();
    const bar = await playing("t1", 100);
    theAudio().currentTime = 50;
    fireEvent.timeUpdate(theAudio());
    fireEvent.keyDown(within(bar).getByRole("slider"), { key: "Home" });
    expect(theAudio().currentTime).toBeCloseTo(0);
    fireEvent.keyDown(within(bar).getByRole("slider"), { key: "End" });
    expect(theAudio().currentTime).toBeCloseTo(100);
  });

  it("plays the next and the previous track of the list", async () => {
    await signedIn({ tasks: TASKS });
    startTestBackground(backendWithFiles(2_000).backend);
    stubMedia();
    await openTaskList();
    const ids = () =>
      [...document.querySelectorAll("li.task")].map((row) => row.getAttribute("data-task-id"));
    const current = () => document.querySelector(".mini-player")?.getAttribute("data-task-id");
    // The list as the background keeps it (its order), once the view shows it so.
    const known = mergeTasks([], TASKS).map((t) => t.id);
    await expect.poll(ids).toEqual(known);
    const order = ids();
    await playing(order[1] ?? "");
    fireEvent.click(screen.getByRole("button", { name: "Next track" }));
    await expect.poll(current).toBe(order[2]);
    fireEvent.click(screen.getByRole("button", { name: "Previous track" }));
    await expect.poll(current).toBe(order[1]);
    fireEvent.click(screen.getByRole("button", { name: "Previous track" }));
    await expect.poll(current).toBe(order[0]);
    // The first of the list has nothing before it.
    await expect
      .poll(
        () => screen.getByRole<HTMLButtonElement>("button", { name: "Previous track" }).disabled,
      )
      .toBe(true);
  });
});
