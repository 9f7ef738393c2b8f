import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { T1_AUDIO, archivedFields, fakeBackend, json, task } from "../../testing/fixtures.ts";
import { mocks, useLocale } from "../../testing/setup.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import type { Task } from "../../lib/shared/types.ts";
import { ResultPlayer } from "./result-player.tsx";

const renderItem = (task: Task) =>
  render(
    <PlayerProvider>
      <ResultPlayer task={task} now={NOW} />
    </PlayerProvider>,
  );

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

describe("a finished track", () => {
  it("says how long until the platform link expires", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    renderItem(done);
    expect(screen.getByTestId("link-expiry").textContent).toBe("Link expires in 22 h");
  });

  it("copies the link", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    const writeText = vi.fn(() => Promise.resolve());
    vi.spyOn(navigator, "clipboard", "get").mockReturnValue({ writeText } as unknown as Clipboard);
    renderItem(done);
    fireEvent.click(screen.getByRole("button", { name: "Copy link: lofi piano" }));
    expect(writeText).toHaveBeenCalledWith(FILE);
    expect(await screen.findByText("Link copied")).toBeTruthy();
  });

  it("downloads through the background's downloads API", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    renderItem(done);
    fireEvent.click(screen.getByRole("button", { name: "Download: lofi piano" }));
    await expect.poll(() => mocks.download.mock.calls.length).toBe(1);
  });

  it("says the link expired when it did and nothing was archived", async () => {
    const expired = { ...done, file_expires_at: "2025-01-01T10:04:00.000Z" };
    await signedIn({ tasks: [expired] });
    startTestBackground(fakeBackend());
    renderItem(expired);
    expect(screen.getByTestId("link-expiry").textContent).toBe("The platform link has expired.");
  });

  it("says so when a download fails because the platform's link expired, and offers a retry", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("SERVER_BAD_CONTENT");
    renderItem(done);
    fireEvent.click(screen.getByRole("button", { name: "Download: lofi piano" }));
    const problem = await screen.findByTestId("download-problem");
    expect(problem.textContent).toContain(
      "The platform's link has expired and Overture has no copy of this track yet.",
    );
    expect(screen.getByTestId("link-expiry").textContent).toBe("The platform link has expired.");
    fireEvent.click(screen.getByRole("button", { name: "Try again: lofi piano" }));
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
    renderItem(archived);
    fireEvent.click(screen.getByRole("button", { name: "下载：lofi piano" }));
    await expect
      .poll(() => screen.queryByTestId("download-state")?.textContent)
      .toBe("平台链接已失效，已改为保存 Overture 存档的副本。");
  });

  it("says a network failure is one, with a retry", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("NETWORK_FAILED");
    renderItem(done);
    fireEvent.click(screen.getByRole("button", { name: "Download: lofi piano" }));
    expect((await screen.findByTestId("download-problem")).textContent).toContain(
      "The download was interrupted by a network problem (NETWORK_FAILED).",
    );
    expect(screen.getByRole("button", { name: "Try again: lofi piano" })).toBeTruthy();
  });

  it("names its retry after the track, in Chinese too, as every card's controls are", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("NETWORK_FAILED");
    renderItem(done);
    fireEvent.click(screen.getByRole("button", { name: "下载：lofi piano" }));
    await screen.findByTestId("download-problem");
    expect(screen.getByRole("button", { name: "重试：lofi piano" }).textContent).toBe("重试");
  });
});

describe("an archived track's downloads", () => {
  const archived: Task = {
    ...done,
    ...archivedFields(),
  };
  const backend = () => fakeBackend({ "GET /api/tasks/t1": () => json(archived) });

  it("offers the WAV and the MP3, and shows how far the download is", async () => {
    await signedIn({ tasks: [archived] });
    startTestBackground(backend());
    mocks.downloadsEnd("running");
    mocks.downloadProgress.bytesReceived = 1_500_000;
    mocks.downloadProgress.totalBytes = 3_000_000;
    renderItem(archived);
    expect(screen.getByRole("button", { name: "Download WAV: lofi piano" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Download MP3: lofi piano" }));
    await expect
      .poll(() => screen.queryByTestId("download-progress")?.textContent, { timeout: 5000 })
      .toBe("Downloading… 50%");
    mocks.finishDownload("complete");
    await expect
      .poll(() => screen.queryByTestId("download-state")?.textContent)
      .toBe("Saved to your downloads.");
    expect(screen.queryByTestId("download-progress")).toBeNull();
  });

  it("says clearly why the MP3 failed, in Chinese too, and retries the same format", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [archived] });
    startTestBackground(backend());
    mocks.downloadsEnd("NETWORK_FAILED");
    renderItem(archived);
    fireEvent.click(screen.getByRole("button", { name: "下载 MP3：lofi piano" }));
    expect((await screen.findByTestId("download-problem")).textContent).toContain(
      "下载因网络问题中断（NETWORK_FAILED）",
    );
    fireEvent.click(screen.getByRole("button", { name: "重试：lofi piano" }));
    await expect.poll(() => mocks.download.mock.calls.length).toBe(2);
    expect(mocks.download.mock.calls[1]?.[0]).toMatchObject({ url: `${T1_AUDIO}?format=mp3` });
  });
});
