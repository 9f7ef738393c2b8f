import { afterAll, beforeAll, expect, it } from "vitest";
import { createArchiveRetention } from "../../src/services/archive/retention.ts";
import { createTaskRecord } from "../../src/services/tasks/record.ts";
import { archiverOf, finishedTask, storedRows } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const DAY = 86_400_000;

/**
 * A retention round takes batch after batch until one comes back short. A batch is counted in
 * files, and an archived WAV result has two (the original and its MP3 rendition).
 */
describeEachDriver("archive retention rounds", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_RETENTION_DAYS: "7" },
      emulator: { maxAudioSeconds: 1 },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
  });
  afterAll(() => t.close());

  it("expires every result past retention in one round, though each has two files", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await finishedTask(t, user.session)).id);
      expect(await archiverOf(t).runOnce()).toBe(1);
    }
    for (const id of ids) expect(await storedRows(t, id)).toMatchObject({ files: 2 });
    const { deps } = t.backend;
    // Two files a batch: a full batch may be a single task.
    const retention = createArchiveRetention(createTaskRecord(deps), deps, {
      files: deps.services.archive.files,
      batchSize: 2,
    });
    await t.emu.control.clock.advance(8 * DAY);

    expect(await retention.runOnce()).toBe(3);
    for (const id of ids)
      expect((await getTask(t, user.session, id)).archive).toMatchObject({ status: "expired" });
  });
});
