import { afterAll, beforeAll, expect, it } from "vitest";
import { fileDownloads, finishedTask } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { setUpTaskUser } from "../support/tasks.ts";

/** ARCHIVE_STORAGE=off: no archiver, results keep only the platform's link. */
describeEachDriver("archiving turned off", (driver) => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_STORAGE: "off" },
      emulator: { maxAudioSeconds: 1 },
    });
  });
  afterAll(() => t.close());

  it("neither queues nor downloads results, and says there is no archive", async () => {
    expect(t.backend.deps.services.archive.archiver).toBeUndefined();
    const user = await setUpTaskUser(t, { webhookSecret: true });
    const done = await finishedTask(t, user.session);
    expect(done).toMatchObject({ archive: null, audio_url: null });
    await t.backend.deps.services.archive.retention.runOnce();
    expect(fileDownloads(t, done.file_url ?? "")).toBe(0);
    const audio = await t.request(`/api/tasks/${done.id}/audio`, { session: user.session });
    expect(await audio.json()).toMatchObject({ error: "not_archived" });
  });
});
