import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import {
  GRANT,
  T1_AUDIO,
  archivedFields,
  fakeBackend,
  json,
  task,
} from "../../testing/fixtures.ts";
import { mocks } from "../../testing/setup.ts";
import { send } from "../shared/messages.ts";

const FILE = "http://127.0.0.1:4010/files/abc.wav";
const done = (overrides: Parameters<typeof task>[0] = {}) =>
  task({
    status: "success",
    file_url: FILE,
    file_expires_at: "2025-01-02T10:00:00.000Z",
    ...overrides,
  });
/** The backend answers the task as `row` (the background re-reads it before downloading). */
const backendWith = (row: ReturnType<typeof task>) =>
  fakeBackend({ "GET /api/tasks/t1": () => json(row) });

describe("background: a download is watched to its end", () => {
  it("answers once the file is saved", async () => {
    await signedIn({ tasks: [done()] });
    startTestBackground(backendWith(done()));
    expect(await send("audio/download", { id: "t1", format: "original" })).toEqual({
      state: "complete",
      source: "platform",
      platformLinkFailed: false,
    });
  });

  it("falls back to the archived copy when the platform's link no longer serves the file", async () => {
    const row = done({ audio_url: T1_AUDIO });
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    mocks.downloadsEnd("SERVER_BAD_CONTENT", "complete");
    expect(await send("audio/download", { id: "t1", format: "original" })).toEqual({
      state: "complete",
      source: "archive",
      platformLinkFailed: true,
    });
    expect(mocks.download).toHaveBeenLastCalledWith({
      url: T1_AUDIO,
      filename: "lofi piano.wav",
      headers: [{ name: "Authorization", value: `Bearer ${GRANT.session_token}` }],
    });
  });

  it("says the link has expired when the platform refuses it and nothing is archived", async () => {
    await signedIn({ tasks: [done()] });
    startTestBackground(backendWith(done()));
    mocks.downloadsEnd("SERVER_FORBIDDEN");
    expect(await send("audio/download", { id: "t1", format: "original" })).toEqual({
      state: "failed",
      problem: "link_expired",
      reason: "SERVER_FORBIDDEN",
    });
  });

  it("says the archive space is full, not that a copy is coming, when the quota refused the copy", async () => {
    const row = done({
      archive: {
        status: "failed",
        error: "archive_quota_exceeded",
        audio_url: null,
        mp3_url: null,
        peaks_url: null,
      },
    });
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    mocks.downloadsEnd("SERVER_FORBIDDEN");
    await expect(send("audio/download", { id: "t1", format: "original" })).rejects.toMatchObject({
      code: "archive_quota_exceeded",
    });
  });

  it("uses the archived copy the backend has now, though the stored task had none", async () => {
    await signedIn({ tasks: [done({ file_expires_at: "2025-01-01T00:00:00.000Z" })] });
    startTestBackground(
      backendWith(done({ file_expires_at: "2025-01-01T00:00:00.000Z", audio_url: T1_AUDIO })),
    );
    expect(await send("audio/download", { id: "t1", format: "original" })).toMatchObject({
      state: "complete",
      source: "archive",
    });
  });

  it("tells a network failure apart from an expired link", async () => {
    const row = done({ audio_url: T1_AUDIO });
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    mocks.downloadsEnd("NETWORK_FAILED");
    expect(await send("audio/download", { id: "t1", format: "original" })).toEqual({
      state: "failed",
      problem: "network",
      reason: "NETWORK_FAILED",
    });
    expect(mocks.download).toHaveBeenCalledTimes(1);
  });

  it("tells a file that could not be saved apart", async () => {
    await signedIn({ tasks: [done()] });
    startTestBackground(backendWith(done()));
    mocks.downloadsEnd("FILE_NO_SPACE");
    expect(await send("audio/download", { id: "t1", format: "original" })).toMatchObject({
      state: "failed",
      problem: "file",
    });
  });

  it("takes a download the person cancelled as cancelled, not failed", async () => {
    await signedIn({ tasks: [done({ audio_url: T1_AUDIO })] });
    startTestBackground(backendWith(done({ audio_url: T1_AUDIO })));
    mocks.downloadsEnd("USER_CANCELED");
    expect(await send("audio/download", { id: "t1", format: "original" })).toEqual({
      state: "cancelled",
    });
    expect(mocks.download).toHaveBeenCalledTimes(1);
  });

  it("still downloads from the stored task when the backend cannot be reached", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    expect(await send("audio/download", { id: "t1", format: "original" })).toMatchObject({
      state: "complete",
      source: "platform",
    });
  });
});

const archivedTask = (overrides: Parameters<typeof task>[0] = {}) =>
  done({
    ...archivedFields(),
    ...overrides,
  });
const bearer = [{ name: "Authorization", value: `Bearer ${GRANT.session_token}` }];

describe("background: an archived result is saved as WAV or MP3, named after the track", () => {
  it("saves the MP3 from the archive under the start of the prompt", async () => {
    const row = archivedTask({ params: { prompt: "  Rainy night: lofi / jazz?  " } });
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    expect(await send("audio/download", { id: "t1", format: "mp3" })).toEqual({
      state: "complete",
      source: "archive",
      platformLinkFailed: false,
    });
    expect(mocks.download).toHaveBeenCalledWith({
      url: `${T1_AUDIO}?format=mp3`,
      filename: "Rainy night lofi jazz.mp3",
      headers: bearer,
    });
  });

  it("saves the original from the archive, not the platform, once archived; a title names it", async () => {
    const row = { ...archivedTask(), title: "Night drive" };
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    await send("audio/download", { id: "t1", format: "original" });
    expect(mocks.download).toHaveBeenCalledTimes(1);
    expect(mocks.download).toHaveBeenCalledWith({
      url: T1_AUDIO,
      filename: "Night drive.wav",
      headers: bearer,
    });
  });

  it("names a track without a prompt after its id, and cuts a long prompt", async () => {
    const { resultFileName } = await import("./downloads.ts");
    expect(resultFileName(done({ params: {} }), "mp3")).toBe("overture-t1.mp3");
    const long = resultFileName(done({ params: { prompt: "a".repeat(200) } }), "original");
    expect(long).toBe(`${"a".repeat(80)}.wav`);
  });

  it("refuses the MP3 of a result that is not archived yet", async () => {
    const row = done({
      archive: { status: "pending", error: null, audio_url: null, mp3_url: null, peaks_url: null },
    });
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    await expect(send("audio/download", { id: "t1", format: "mp3" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(mocks.download).not.toHaveBeenCalled();
  });

  it("reports a running download's progress, and none once it ended", async () => {
    const row = archivedTask();
    await signedIn({ tasks: [row] });
    startTestBackground(backendWith(row));
    mocks.downloadsEnd("running");
    mocks.downloadProgress.bytesReceived = 1_000_000;
    mocks.downloadProgress.totalBytes = 4_000_000;
    const ended = send("audio/download", { id: "t1", format: "mp3" });
    await expect
      .poll(() => send("audio/download-progress", { id: "t1" }), { timeout: 5000 })
      .toEqual({ received: 1_000_000, total: 4_000_000 });
    mocks.finishDownload("complete");
    expect(await ended).toMatchObject({ state: "complete" });
    expect(await send("audio/download-progress", { id: "t1" })).toBeNull();
  });
});

describe("resultFileName", () => {
  it("cuts a long prompt at a word and drops the punctuation left at its end", async () => {
    const { resultFileName } = await import("./downloads.ts");
    const prompt =
      "lo-fi hip hop, mellow Rhodes piano, vinyl crackle, soft boom-bap drums, warm bass, 80 BPM";
    expect(resultFileName(done({ params: { prompt } }), "mp3")).toBe(
      "lo-fi hip hop, mellow Rhodes piano, vinyl crackle, soft boom-bap drums, warm.mp3",
    );
  });
});
