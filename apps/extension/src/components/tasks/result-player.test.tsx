import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, task } from "../../testing/fixtures.ts";
import { mocks, useLocale } from "../../testing/setup.ts";
import { ResultPlayer } from "./result-player.tsx";

const FILE = "http://127.0.0.1:4010/files/abc.wav";
const NOW = Date.parse("2025-01-01T12:00:00.000Z");
const done = task({
  status: "success",
  file_url: FILE,
  file_expires_at: "2025-01-02T10:00:00.000Z",
  finished_at: "2025-01-01T10:02:00.000Z",
});

/** The platform's file, served to the background's fetch (the view never fetches it itself). */
function backendWithFile() {
  const backend = fakeBackend();
  const fetch = backend.fetch;
  const bytes = new Uint8Array(1_200_000).fill(7);
  backend.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    new Request(input, init).url === FILE
      ? Promise.resolve(
          new Response(bytes, {
            headers: { "Content-Type": "audio/wav", "Content-Length": String(bytes.length) },
          }),
        )
      : fetch(input, init);
  return { backend, bytes };
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

describe("a finished track", () => {
  it("plays in place from the bytes the background fetched, whole, in chunks", async () => {
    await signedIn({ tasks: [done] });
    const { backend, bytes } = backendWithFile();
    startTestBackground(backend);
    vi.stubGlobal("OfflineAudioContext", FakeOfflineAudioContext);
    let blob: Blob | undefined;
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      blob = b as Blob;
      return "blob:overture/1";
    });
    render(<ResultPlayer task={done} now={NOW} />);
    await expect
      .poll(() => document.querySelector("audio")?.getAttribute("src"))
      .toBe("blob:overture/1");
    expect(blob?.size).toBe(bytes.length);
    expect(blob?.type).toBe("audio/wav");
  });

  it("plays the archived copy when the platform's link no longer serves the file", async () => {
    const archived = { ...done, audio_url: "http://127.0.0.1:8787/api/tasks/t1/audio" };
    await signedIn({ tasks: [archived] });
    const bytes = new Uint8Array(4_000).fill(3);
    const backend = fakeBackend({
      "GET /api/tasks/t1/audio": () =>
        new Response(bytes, { headers: { "Content-Type": "audio/wav" } }),
    });
    const fetch = backend.fetch;
    backend.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
      new Request(input, init).url === FILE
        ? Promise.resolve(new Response("gone", { status: 410 }))
        : fetch(input, init);
    startTestBackground(backend);
    let blob: Blob | undefined;
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      blob = b as Blob;
      return "blob:overture/2";
    });
    render(<ResultPlayer task={archived} now={NOW} />);
    await expect
      .poll(() => document.querySelector("audio")?.getAttribute("src"))
      .toBe("blob:overture/2");
    expect(blob?.size).toBe(bytes.length);
  });

  it("draws the waveform from the decoded audio", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    vi.stubGlobal("OfflineAudioContext", FakeOfflineAudioContext);
    render(<ResultPlayer task={done} now={NOW} />);
    const canvas = screen.getByRole("img", { name: "Waveform of the track" });
    await expect.poll(() => canvas.getAttribute("data-state")).toBe("drawn");
  });

  it("says the waveform could not be drawn when the audio does not decode", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    vi.stubGlobal(
      "OfflineAudioContext",
      class {
        decodeAudioData = () => Promise.reject(new Error("bad data"));
      },
    );
    render(<ResultPlayer task={done} now={NOW} />);
    expect(await screen.findByText("The waveform could not be drawn.")).toBeTruthy();
  });

  it("says how long until the platform link expires", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    render(<ResultPlayer task={done} now={NOW} />);
    expect(screen.getByTestId("link-expiry").textContent).toBe("Link expires in 22 h");
  });

  it("copies the link", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    const writeText = vi.fn(() => Promise.resolve());
    vi.spyOn(navigator, "clipboard", "get").mockReturnValue({ writeText } as unknown as Clipboard);
    render(<ResultPlayer task={done} now={NOW} />);
    fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    expect(writeText).toHaveBeenCalledWith(FILE);
    expect(await screen.findByText("Link copied")).toBeTruthy();
  });

  it("downloads through the background's downloads API", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    render(<ResultPlayer task={done} now={NOW} />);
    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    await expect.poll(() => mocks.download.mock.calls.length).toBe(1);
  });

  it("says the link expired when it did and nothing was archived", async () => {
    const expired = { ...done, file_expires_at: "2025-01-01T10:04:00.000Z" };
    await signedIn({ tasks: [expired] });
    startTestBackground(fakeBackend());
    render(<ResultPlayer task={expired} now={NOW} />);
    expect(screen.getByTestId("link-expiry").textContent).toBe("The platform link has expired.");
  });

  it("says so when a download fails because the platform's link expired, and offers a retry", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("SERVER_BAD_CONTENT");
    render(<ResultPlayer task={done} now={NOW} />);
    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    const problem = await screen.findByTestId("download-problem");
    expect(problem.textContent).toContain(
      "The platform's link has expired and Overture has no copy of this track yet.",
    );
    expect(screen.getByTestId("link-expiry").textContent).toBe("The platform link has expired.");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await expect.poll(() => mocks.download.mock.calls.length).toBe(2);
    await expect.poll(() => screen.queryByTestId("download-problem")).toBeNull();
    expect(screen.getByTestId("download-state").textContent).toBe("Saved to your downloads.");
  });

  it("says the archived copy was saved instead of the expired link, in Chinese", async () => {
    await useLocale("zh_CN");
    const archived = { ...done, audio_url: "http://127.0.0.1:8787/api/tasks/t1/audio" };
    await signedIn({ tasks: [archived] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("SERVER_BAD_CONTENT", "complete");
    render(<ResultPlayer task={archived} now={NOW} />);
    fireEvent.click(screen.getByRole("button", { name: "下载" }));
    await expect
      .poll(() => screen.queryByTestId("download-state")?.textContent)
      .toBe("平台链接已失效，已改为保存 Overture 存档的副本。");
  });

  it("says a network failure is one, with a retry", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("NETWORK_FAILED");
    render(<ResultPlayer task={done} now={NOW} />);
    fireEvent.click(screen.getByRole("button", { name: "Download" }));
    expect((await screen.findByTestId("download-problem")).textContent).toContain(
      "The download was interrupted by a network problem (NETWORK_FAILED).",
    );
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
