import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  archiverOf,
  finishedTask,
  originalBytes,
  sameBytes,
  storedRows,
} from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const DAY = 86_400_000;

/** ARCHIVE_DIR set: files go to the folder, rows (and the quota) stay in the database. */
describeEachDriver("result archiving into a folder", (driver) => {
  let t: TestBackend;
  let dir: string;
  let user: TaskUser;
  /** Names in the folder besides the scratch folder. */
  const stored = async () => (await readdir(dir)).filter((name) => name !== ".partial").sort();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "overture-archive-"));
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_DIR: dir, ARCHIVE_QUOTA_MB: "1", ARCHIVE_RETENTION_DAYS: "1" },
      emulator: { maxAudioSeconds: 12 },
      // No Content-Length: the quota is only found exceeded once a result's files are in the
      // folder, so the test sees them removed again.
      rewritePlatformResponse: (_path, response) => {
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        return new Response(response.body, { status: response.status, headers });
      },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("stores the original and the rendition as files and serves ranges from them", async () => {
    const task = await finishedTask(t, user.session);
    expect(await archiverOf(t).runOnce()).toBe(1);
    expect(await storedRows(t, task.id)).toEqual({ files: 2, chunks: 0, peaks: 1 });
    expect(await stored()).toHaveLength(2);
    const original = await originalBytes(t, task.file_url ?? "");
    const part = await t.request(`/api/tasks/${task.id}/audio`, {
      session: user.session,
      headers: { Range: "bytes=300000-300099" },
    });
    expect(part.status).toBe(206);
    expect(
      sameBytes(new Uint8Array(await part.arrayBuffer()), original.slice(300_000, 300_100)),
    ).toBe(true);
    const mp3 = await t.request(`/api/tasks/${task.id}/audio?format=mp3`, {
      session: user.session,
    });
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
  });

  it("removes the files again when the quota refuses a result they belong to", async () => {
    const before = await stored();
    const task = await finishedTask(t, user.session);
    await archiverOf(t).runOnce();
    expect((await getTask(t, user.session, task.id)).archive?.error).toBe("archive_quota_exceeded");
    expect(await stored()).toEqual(before);
    expect(await readdir(join(dir, ".partial"))).toEqual([]);
  });

  it("deletes the files of results past the retention period", async () => {
    await t.emu.control.clock.advance(2 * DAY);
    expect(await t.backend.deps.services.archive.retention.runOnce()).toBe(1);
    expect(await stored()).toEqual([]);
  });
});
