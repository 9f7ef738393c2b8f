import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Peaks } from "../../src/api.ts";
import {
  archiverOf,
  fileDownloads,
  finishedTask,
  originalBytes,
  sameBytes,
  storedRows,
} from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/** 10 s of the emulator's compact WAV (22.05 kHz mono): 441 KB, seven 64 KiB chunks. */
const SECONDS = 10;

describeEachDriver("result archiving into Postgres (the default)", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let taskId: string;
  let original: Uint8Array;
  const audio = (query = "", headers: Record<string, string> = {}) =>
    t.request(`/api/tasks/${taskId}/audio${query}`, { session: user.session, headers });

  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { maxAudioSeconds: SECONDS } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    const done = await finishedTask(t, user.session);
    taskId = done.id;
    original = await originalBytes(t, done.file_url ?? "");
  });
  afterAll(() => t.close());

  it("answers not_archived until the archiver has run, then shows the archive on the task", async () => {
    expect((await getTask(t, user.session, taskId)).archive).toMatchObject({
      status: "pending",
      audio_url: null,
    });
    const notYet = await audio();
    expect(notYet.status).toBe(404);
    expect(await notYet.json()).toMatchObject({ error: "not_archived" });

    expect(await archiverOf(t).runOnce()).toBe(1);
    const base = `${t.config.publicUrl}/api/tasks/${taskId}`;
    expect((await getTask(t, user.session, taskId)).archive).toEqual({
      status: "archived",
      error: null,
      audio_url: `${base}/audio`,
      mp3_url: `${base}/audio?format=mp3`,
      peaks_url: `${base}/peaks`,
    });
    expect(await storedRows(t, taskId)).toEqual({ files: 2, chunks: 9, peaks: 1 }); // 64 KiB chunks
  });

  it("serves the original whole, byte for byte", async () => {
    const whole = await audio();
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    expect(whole.headers.get("content-length")).toBe(String(original.byteLength));
    expect(sameBytes(new Uint8Array(await whole.arrayBuffer()), original)).toBe(true);
  });

  it("serves a range that spans two chunks with 206 and Content-Range", async () => {
    const [start, end] = [256 * 1024 - 10, 256 * 1024 + 9];
    const part = await audio("", { Range: `bytes=${start}-${end}` });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes ${start}-${end}/${original.byteLength}`);
    expect(
      sameBytes(new Uint8Array(await part.arrayBuffer()), original.slice(start, end + 1)),
    ).toBe(true);
  });

  it("serves a suffix range, and the rest of the file from an offset", async () => {
    const tail = await audio("", { Range: "bytes=-100" });
    expect(tail.status).toBe(206);
    expect(sameBytes(new Uint8Array(await tail.arrayBuffer()), original.slice(-100))).toBe(true);
    const rest = await audio("", { Range: "bytes=400000-" });
    expect(sameBytes(new Uint8Array(await rest.arrayBuffer()), original.slice(400_000))).toBe(true);
  });

  it("answers 416 with the size for a range past the end", async () => {
    const past = await audio("", { Range: `bytes=${original.byteLength}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${original.byteLength}`);
  });

  it.each(["bytes=5-2", "bytes=x-1", "items=0-9", "bytes=0-9,"])(
    "ignores the invalid range set %s and serves the whole file with 200 (RFC 9110 §14.2)",
    async (range) => {
      const whole = await audio("", { Range: range });
      expect(whole.status).toBe(200);
      expect(whole.headers.get("content-range")).toBeNull();
      expect(whole.headers.get("content-length")).toBe(String(original.byteLength));
    },
  );

  it("honours If-Range only for this file's ETag, and If-None-Match with 304", async () => {
    const etag = (await audio("", { Range: "bytes=0-0" })).headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f-]{36}"$/);
    expect((await audio("", { Range: "bytes=0-9", "If-Range": etag })).status).toBe(206);
    const stale = await audio("", { Range: "bytes=0-9", "If-Range": '"another"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("content-length")).toBe(String(original.byteLength));
    expect((await audio("", { "If-None-Match": etag })).status).toBe(304);
  });

  it("serves an MP3 rendition of at most 1.5 MB per minute, with ranges", async () => {
    const mp3 = await audio("?format=mp3");
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = new Uint8Array(await mp3.arrayBuffer());
    // An MPEG audio frame starts with 11 set bits.
    expect(bytes[0]).toBe(0xff);
    expect((bytes[1] ?? 0) & 0xe0).toBe(0xe0);
    expect(bytes.byteLength).toBeGreaterThan(10_000);
    expect(bytes.byteLength).toBeLessThanOrEqual((1.5e6 * SECONDS) / 60);
    const part = await audio("?format=mp3", { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(sameBytes(new Uint8Array(await part.arrayBuffer()), bytes.slice(100, 200))).toBe(true);
  });

  it("serves the original as format=wav, and refuses an unknown format", async () => {
    expect((await audio("?format=wav")).headers.get("content-type")).toBe("audio/wav");
    expect((await audio("?format=flac")).status).toBe(400);
  });

  it("serves the waveform peaks: a few KB in the audiowaveform layout", async () => {
    const response = await t.request(`/api/tasks/${taskId}/peaks`, { session: user.session });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeLessThan(8_000);
    const peaks = JSON.parse(text) as Peaks;
    expect(peaks).toMatchObject({ version: 2, channels: 1, bits: 8, sample_rate: 22_050 });
    expect(peaks.duration_seconds).toBeCloseTo(SECONDS, 3);
    expect(peaks.length).toBeLessThanOrEqual(1000);
    expect(peaks.data).toHaveLength(peaks.length * 2);
    expect(peaks.length * peaks.samples_per_pixel).toBeGreaterThanOrEqual(SECONDS * 22_050);
    // The synthesised melody is loud somewhere and silent nowhere near all of it.
    expect(Math.max(...peaks.data)).toBeGreaterThan(20);
    expect(Math.min(...peaks.data)).toBeLessThan(-20);
  });

  it("archives each result once: a second round downloads nothing", async () => {
    const task = await getTask(t, user.session, taskId);
    const before = fileDownloads(t, task.file_url ?? "");
    expect(await archiverOf(t).runOnce()).toBe(0);
    expect(fileDownloads(t, task.file_url ?? "")).toBe(before);
  });

  it("serves the archive to nobody but its owner", async () => {
    expect((await t.request(`/api/tasks/${taskId}/audio`)).status).toBe(401);
    const other = await t.signIn({ login: "ada" });
    for (const path of ["audio", "audio?format=mp3", "peaks"])
      expect(
        (await t.request(`/api/tasks/${taskId}/${path}`, { session: other.sessionToken })).status,
      ).toBe(404);
  });

  it("reports the user's archive usage and limits", async () => {
    const response = await t.request("/api/archive", { session: user.session });
    const usage = (await response.json()) as { used_bytes: number; quota_bytes: number };
    const mp3 = (await (await audio("?format=mp3")).arrayBuffer()).byteLength;
    expect(usage).toEqual({
      used_bytes: original.byteLength + mp3,
      quota_bytes: 2048 * 1024 * 1024,
      retention_days: null,
    });
  });

  it("issues a media link an <audio> element can play with ranges, without a session", async () => {
    const issued = await t.request(`/api/tasks/${taskId}/media-link?format=mp3`, {
      method: "POST",
      session: user.session,
    });
    expect(issued.status).toBe(200);
    const link = (await issued.json()) as { url: string; expires_at: string };
    expect(link.url.startsWith(`${t.config.publicUrl}/media/`)).toBe(true);
    expect(Date.parse(link.expires_at) - t.clock.now()).toBe(6 * 3_600_000);
    const path = new URL(link.url).pathname;
    const part = await t.request(path, { headers: { Range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-type")).toBe("audio/mpeg");
    expect(part.headers.get("referrer-policy")).toBe("no-referrer");
    const mp3 = new Uint8Array(await (await audio("?format=mp3")).arrayBuffer());
    expect(sameBytes(new Uint8Array(await part.arrayBuffer()), mp3.slice(0, 100))).toBe(true);
    // The link names its task, format and owner, readably by nobody.
    expect(path).not.toContain(taskId);
  });

  it("refuses an altered media link, and another user's task gets none", async () => {
    const { url } = (await (
      await t.request(`/api/tasks/${taskId}/media-link`, { method: "POST", session: user.session })
    ).json()) as { url: string };
    const path = new URL(url).pathname;
    expect((await t.request(path)).status).toBe(200);
    // One character of the sealed token changed (the one replaced, not the last: a token whose
    // third-to-last character was already "A" stayed the same and was served).
    const at = path.length - 3;
    const altered = `${path.slice(0, at)}${path[at] === "A" ? "B" : "A"}${path.slice(at + 1)}`;
    expect(altered).not.toBe(path);
    const refused = await t.request(altered);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "media_link_invalid" });
    const other = await t.signIn({ login: "ada" });
    const theirs = await t.request(`/api/tasks/${taskId}/media-link`, {
      method: "POST",
      session: other.sessionToken,
    });
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toMatchObject({ error: "task_not_found" });
  });

  it("serves a media link under one spelling only: a character added, a fifth segment, + for - are 403", async () => {
    let path = "";
    // A link whose token has a "-" after its key id.
    for (let i = 0; i < 200 && !path; i += 1) {
      const { url } = (await (
        await t.request(`/api/tasks/${taskId}/media-link`, {
          method: "POST",
          session: user.session,
        })
      ).json()) as { url: string };
      const token = new URL(url).pathname.slice("/media/".length);
      if (token.slice(6).includes("-")) path = `/media/${token}`;
    }
    expect(path).not.toBe("");
    expect((await t.request(path, { headers: { Range: "bytes=0-0" } })).status).toBe(206);
    for (const altered of [
      `${path}A`,
      `${path}.x`,
      `/media/${path.slice("/media/".length).replaceAll("-", "+")}`,
    ]) {
      const refused = await t.request(altered);
      expect(refused.status, altered).toBe(403);
      expect(await refused.json()).toMatchObject({ error: "media_link_invalid" });
    }
  });

  it("stops serving a media link once its task is deleted", async () => {
    const done = await finishedTask(t, user.session);
    expect(await archiverOf(t).runOnce()).toBe(1);
    const { url } = (await (
      await t.request(`/api/tasks/${done.id}/media-link?format=mp3`, {
        method: "POST",
        session: user.session,
      })
    ).json()) as { url: string };
    const path = new URL(url).pathname;
    expect((await t.request(path, { headers: { Range: "bytes=0-0" } })).status).toBe(206);
    const deleted = await t.request(`/api/tasks/${done.id}`, {
      method: "DELETE",
      session: user.session,
    });
    expect(deleted.ok).toBe(true);
    const gone = await t.request(path, { headers: { Range: "bytes=0-0" } });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: "not_archived" });
  });

  it("marks private audio and media links private, no-cache, with a strong ETag: every play revalidates", async () => {
    const { url } = (await (
      await t.request(`/api/tasks/${taskId}/media-link`, { method: "POST", session: user.session })
    ).json()) as { url: string };
    for (const response of [await audio(), await t.request(new URL(url).pathname)]) {
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
      expect(response.headers.get("etag")).toMatch(/^"[0-9a-f-]{36}"$/);
      await response.body?.cancel();
    }
  });

  it("answers a revalidation 304 while the track is there, and 404 once it is deleted (session route and media link)", async () => {
    const done = await finishedTask(t, user.session);
    expect(await archiverOf(t).runOnce()).toBe(1);
    const own = (headers: Record<string, string> = {}) =>
      t.request(`/api/tasks/${done.id}/audio?format=mp3`, { session: user.session, headers });
    const { url } = (await (
      await t.request(`/api/tasks/${done.id}/media-link?format=mp3`, {
        method: "POST",
        session: user.session,
      })
    ).json()) as { url: string };
    const media = (headers: Record<string, string> = {}) =>
      t.request(new URL(url).pathname, { headers });
    const etag = (await own()).headers.get("etag") ?? "";
    expect((await own({ "If-None-Match": etag })).status).toBe(304);
    expect((await media({ "If-None-Match": etag })).status).toBe(304);
    await t.request(`/api/tasks/${done.id}`, { method: "DELETE", session: user.session });
    expect((await own({ "If-None-Match": etag })).status).toBe(404);
    expect((await media({ "If-None-Match": etag })).status).toBe(404);
  });

  it("answers a revalidation of a signed-out session's audio 401", async () => {
    const other = await t.signIn();
    const etag = (await audio()).headers.get("etag") ?? "";
    const request = (session: string) =>
      t.request(`/api/tasks/${taskId}/audio`, { session, headers: { "If-None-Match": etag } });
    expect((await request(user.session)).status).toBe(304);
    const signedIn = other.sessionToken;
    await t.request("/auth/logout", { method: "POST", session: signedIn });
    expect((await request(signedIn)).status).toBe(401);
  });

  it("refuses a media link once it has expired", async () => {
    const { url } = (await (
      await t.request(`/api/tasks/${taskId}/media-link`, { method: "POST", session: user.session })
    ).json()) as { url: string };
    const path = new URL(url).pathname;
    await t.emu.control.clock.advance(6 * 3_600_000 - 1_000);
    expect((await t.request(path, { headers: { Range: "bytes=0-0" } })).status).toBe(206);
    await t.emu.control.clock.advance(1_000);
    expect((await t.request(path)).status).toBe(403);
  });

  it("queues results that finished while archiving was off when an archiver starts", async () => {
    const done = await finishedTask(t, user.session);
    // As a task of a release that did not archive by default was left.
    await t.database.db.execute(sql`update tasks set archive_status = null where id = ${done.id}`);
    expect((await getTask(t, user.session, done.id)).archive).toBeNull();
    await archiverOf(t).start();
    await archiverOf(t).stop();
    expect((await getTask(t, user.session, done.id)).archive?.status).toBe("pending");
    expect(await archiverOf(t).runOnce()).toBe(1);
    expect((await getTask(t, user.session, done.id)).archive?.status).toBe("archived");
  });
});
