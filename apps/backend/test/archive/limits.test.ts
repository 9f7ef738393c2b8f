import { afterAll, beforeAll, expect, it } from "vitest";
import {
  archiverOf,
  fileDownloads,
  finishedTask,
  originalBytes,
  storedRows,
} from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * ARCHIVE_QUOTA_MB=1 holds one 12 s result (529 KB WAV + ~96 KB MP3) but not two; a result
 * stripped of its Content-Length is only found too big after the download, inside the
 * transaction that would store it.
 */
describeEachDriver("archive quota and retention", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  let first: string;
  let firstRows: Awaited<ReturnType<typeof storedRows>>;
  /** Result files whose Content-Length the "platform" leaves out. */
  const unannounced = new Set<string>();

  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_QUOTA_MB: "1", ARCHIVE_RETENTION_DAYS: "7" },
      emulator: { maxAudioSeconds: 12 },
      rewritePlatformResponse: (path, response) => {
        if (!unannounced.has(path)) return response;
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        return new Response(response.body, { status: response.status, headers });
      },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    first = (await finishedTask(t, user.session)).id;
    expect(await archiverOf(t).runOnce()).toBe(1);
    firstRows = await storedRows(t, first);
    expect(firstRows).toMatchObject({ files: 2, peaks: 1 });
  });
  afterAll(() => t.close());

  it("refuses a result over the quota before its body is read, and says why", async () => {
    const task = await finishedTask(t, user.session);
    await archiverOf(t).runOnce();
    const after = await getTask(t, user.session, task.id);
    expect(after.archive).toMatchObject({
      status: "failed",
      error: "archive_quota_exceeded",
      audio_url: null,
    });
    expect(await storedRows(t, task.id)).toEqual({ files: 0, chunks: 0, peaks: 0 });
  });

  it("refuses a result found over the quota only after downloading it, storing nothing", async () => {
    const task = await finishedTask(t, user.session);
    unannounced.add(new URL(task.file_url ?? "").pathname);
    await archiverOf(t).runOnce();
    expect((await getTask(t, user.session, task.id)).archive).toMatchObject({
      status: "failed",
      error: "archive_quota_exceeded",
    });
    expect(fileDownloads(t, task.file_url ?? "")).toBe(1);
    expect(await storedRows(t, task.id)).toEqual({ files: 0, chunks: 0, peaks: 0 });
    // The first result is untouched.
    expect(await storedRows(t, first)).toEqual(firstRows);
  });

  it("removes results older than the retention period and marks them expired", async () => {
    const before = await originalBytes(t, (await getTask(t, user.session, first)).file_url ?? "");
    expect(before.byteLength).toBeGreaterThan(0);
    const retention = t.backend.deps.services.archive.retention;
    expect(await retention.runOnce()).toBe(0);
    await t.emu.control.clock.advance(8 * DAY);
    expect(await retention.runOnce()).toBe(1);
    expect((await getTask(t, user.session, first)).archive).toMatchObject({
      status: "expired",
      audio_url: null,
      peaks_url: null,
    });
    expect(await storedRows(t, first)).toEqual({ files: 0, chunks: 0, peaks: 0 });
    const gone = await t.request(`/api/tasks/${first}/audio`, { session: user.session });
    expect(gone.status).toBe(404);
    expect(await retention.runOnce()).toBe(0);
    const usage = await t.request("/api/archive", { session: user.session });
    expect(await usage.json()).toMatchObject({ used_bytes: 0, retention_days: 7 });
  });
});

describeEachDriver("archive quota freed by a deletion", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_QUOTA_MB: "1" },
      emulator: { maxAudioSeconds: 12 },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
  });
  afterAll(() => t.close());

  it("archives a result refused for the quota once a deleted track's space is purged", async () => {
    const kept = (await finishedTask(t, user.session)).id;
    await archiverOf(t).runOnce();
    const refused = (await finishedTask(t, user.session)).id;
    await archiverOf(t).runOnce();
    expect((await getTask(t, user.session, refused)).archive).toMatchObject({
      status: "failed",
      error: "archive_quota_exceeded",
    });
    // Nothing freed yet: the refusal stands, and a run of the archiver does not retry it.
    expect(await archiverOf(t).runOnce()).toBe(0);

    const removed = await t.request(`/api/tasks/${kept}`, {
      method: "DELETE",
      session: user.session,
    });
    expect(removed.status).toBe(200);
    await t.emu.control.clock.advance(10_000);
    expect(await t.backend.deps.services.taskPurge.runOnce()).toBe(1);

    expect(await archiverOf(t).runOnce()).toBe(1);
    expect((await getTask(t, user.session, refused)).archive).toMatchObject({ status: "archived" });
    expect(await storedRows(t, refused)).toMatchObject({ files: 2, peaks: 1 });
  });
});

describeEachDriver("archive quota freed by retention", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_QUOTA_MB: "1", ARCHIVE_RETENTION_DAYS: "7" },
      emulator: { maxAudioSeconds: 12 },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
  });
  afterAll(() => t.close());

  it("archives a result refused for the quota once retention removes an old one", async () => {
    const retention = t.backend.deps.services.archive.retention;
    const old = (await finishedTask(t, user.session)).id;
    expect(await archiverOf(t).runOnce()).toBe(1);
    // The refused result comes an hour before the old one is due: its link (24 h) still works then.
    await t.emu.control.clock.advance(7 * DAY - HOUR);
    const refused = (await finishedTask(t, user.session)).id;
    await archiverOf(t).runOnce();
    expect((await getTask(t, user.session, refused)).archive).toMatchObject({
      status: "failed",
      error: "archive_quota_exceeded",
    });
    expect(await retention.runOnce()).toBe(0);
    expect(await archiverOf(t).runOnce()).toBe(0);

    await t.emu.control.clock.advance(2 * HOUR);
    expect(await retention.runOnce()).toBe(1);
    expect((await getTask(t, user.session, old)).archive).toMatchObject({ status: "expired" });
    expect((await getTask(t, user.session, refused)).archive).toMatchObject({
      status: "pending",
      error: null,
    });

    expect(await archiverOf(t).runOnce()).toBe(1);
    expect((await getTask(t, user.session, refused)).archive).toMatchObject({ status: "archived" });
    expect(await storedRows(t, refused)).toMatchObject({ files: 2, peaks: 1 });
  });
});
