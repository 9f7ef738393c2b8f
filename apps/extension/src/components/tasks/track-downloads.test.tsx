import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { T1_AUDIO, archivedFields, fakeBackend, json, task } from "../../testing/fixtures.ts";
import { mocks, useLocale } from "../../testing/setup.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import type { Task } from "../../lib/shared/types.ts";
import { TrackRow } from "./track-row.tsx";

const renderItem = (task: Task) =>
  render(
    <PlayerProvider>
      <ul>
        <TrackRow task={task} now={NOW} />
      </ul>
    </PlayerProvider>,
  );

/** Opens the row's "⋯" menu and chooses `item` (`more`: the menu button's name). */
function choose(item: string, more = "More actions: lofi piano") {
  fireEvent.click(screen.getByRole("button", { name: more }));
  fireEvent.click(screen.getByRole("menuitem", { name: item }));
}

/** The details sheet's part about the platform's own link (its original, which expires). */
async function originalLink() {
  choose("Details");
  const details = within(await screen.findByRole("dialog"));
  await details.findByText("Engine settings");
  return details;
}

const FILE = "http://127.0.0.1:4010/files/abc.wav";

/** The backend's details of a task (what the details sheet reads). */
const details = (t: Task) => ({
  task: t,
  prompt: "lofi piano",
  lyrics: "",
  requested_duration_seconds: 60,
  actual_duration_seconds: 60,
  timings: { waiting_seconds: 1, generation_seconds: 3, total_seconds: 4 },
  price: null,
  currency: null,
});
const NOW = Date.parse("2025-01-01T12:00:00.000Z");
const done = task({
  platform_task_id: "P1",
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
  it("offers the platform's own link only in its details, saying when it expires", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(
      fakeBackend({
        "GET /api/tasks/t1/details": () => json(details(done)),
      }),
    );
    renderItem(done);
    expect(screen.queryByTestId("link-expiry")).toBeNull();
    const sheet = await originalLink();
    expect(
      sheet.getByRole("link", { name: "Open the platform's original" }).getAttribute("href"),
    ).toBe(FILE);
    expect(sheet.getByTestId("link-expiry").textContent).toBe("Link expires in 22 h");
  });

  it("leaves the platform's link out of the details once it expired", async () => {
    const expired = { ...done, file_expires_at: "2025-01-01T10:04:00.000Z" };
    await signedIn({ tasks: [expired] });
    startTestBackground(fakeBackend({ "GET /api/tasks/t1/details": () => json(details(expired)) }));
    renderItem(expired);
    const sheet = await originalLink();
    expect(sheet.queryByRole("link")).toBeNull();
  });

  it("downloads through the background's downloads API", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    renderItem(done);
    choose("Download WAV");
    await expect.poll(() => mocks.download.mock.calls.length).toBe(1);
  });

  it("says so when a download fails because the platform's link expired, and offers a retry", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("SERVER_BAD_CONTENT");
    renderItem(done);
    choose("Download WAV");
    const problem = await screen.findByTestId("download-problem");
    expect(problem.textContent).toContain(
      "The platform's link has expired and Overture has no copy of this track yet.",
    );
    fireEvent.click(screen.getByRole("button", { name: "Try again: lofi piano" }));
    await expect.poll(() => mocks.download.mock.calls.length).toBe(2);
    await expect.poll(() => screen.queryByTestId("download-problem")).toBeNull();
    // Busy first (the problem is gone), then the outcome once the browser finished the file.
    await expect
      .poll(() => screen.queryByTestId("download-state")?.textContent)
      .toBe("Saved to your downloads.");
  });

  it("says the archived copy was saved instead of the expired link, in Chinese", async () => {
    await useLocale("zh_CN");
    const archived = { ...done, audio_url: "http://127.0.0.1:8787/api/tasks/t1/audio" };
    await signedIn({ tasks: [archived] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("SERVER_BAD_CONTENT", "complete");
    renderItem(archived);
    choose("下载 WAV", "更多操作：lofi piano");
    await expect
      .poll(() => screen.queryByTestId("download-state")?.textContent)
      .toBe("平台链接已失效，已改为保存 Overture 存档的副本。");
  });

  it("says a network failure is one, with a retry", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(backendWithFile().backend);
    mocks.downloadsEnd("NETWORK_FAILED");
    renderItem(done);
    choose("Download WAV");
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
    choose("下载 WAV", "更多操作：lofi piano");
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
    choose("Download MP3");
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
    choose("下载 MP3", "更多操作：lofi piano");
    expect((await screen.findByTestId("download-problem")).textContent).toContain(
      "下载因网络问题中断（NETWORK_FAILED）",
    );
    fireEvent.click(screen.getByRole("button", { name: "重试：lofi piano" }));
    await expect.poll(() => mocks.download.mock.calls.length).toBe(2);
    expect(mocks.download.mock.calls[1]?.[0]).toMatchObject({ url: `${T1_AUDIO}?format=mp3` });
  });
});
