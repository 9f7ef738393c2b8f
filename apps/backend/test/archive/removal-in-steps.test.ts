import { afterAll, beforeAll, expect, it } from "vitest";
import { DROP_BATCH } from "../../src/services/archive/chunks.ts";
import { archiverOf, finishedTask, storedRows } from "../support/archive.ts";
import {
  chunksByFile,
  type ChunkAuditRow,
  clearChunkAudit,
  installChunkAudit,
  readChunkAudit,
} from "../support/chunk-audit.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const DAY = 86_400_000;
/** 60 s of the emulator's default WAV: 2.6 MB, some 40 chunks, several batches. */
const SECONDS = 60;

/**
 * What one removal did, as the database saw it: every file hidden in one transaction of its own
 * before any chunk went, then the chunks dropped at most a batch per transaction, all of them.
 */
function expectRemovedInSmallSteps(audit: ChunkAuditRow[], files: Map<string, number>) {
  const hides = audit.filter((row) => row.what === "hide");
  const drops = audit.filter((row) => row.what === "drop");
  expect(hides.map((row) => row.file_id).sort()).toEqual([...files.keys()].sort());
  const hideXacts = new Set(hides.map((row) => row.xact));
  expect(hideXacts.size).toBe(1);
  const lastHide = Math.max(...hides.map((row) => row.n));
  expect(drops.filter((row) => row.n < lastHide || hideXacts.has(row.xact))).toEqual([]);
  // Readers could no longer see a file when any of its chunks went.
  expect(drops.filter((row) => row.file_complete !== false)).toEqual([]);

  const perXact = new Map<string, number>();
  const perFile = new Map<string, number>();
  for (const row of drops) {
    perXact.set(row.xact, (perXact.get(row.xact) ?? 0) + row.chunks);
    perFile.set(row.file_id, (perFile.get(row.file_id) ?? 0) + row.chunks);
  }
  expect(Math.max(...perXact.values())).toBeLessThanOrEqual(DROP_BATCH);
  expect(perFile).toEqual(files);
}

/**
 * Removing an archived result (a purge of a deleted track, or retention) must not hold the
 * database for the whole file: triggers installed in the test database record each step.
 */
describeEachDriver("removing an archived result in small steps", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_RETENTION_DAYS: "7" },
      emulator: { maxAudioSeconds: SECONDS },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    await installChunkAudit(t.database.db);
  });
  afterAll(() => t.close());

  /** An archived result of several batches of chunks, and its chunk count per file. */
  async function archivedResult() {
    const task = await finishedTask(t, user.session, { duration: SECONDS });
    expect(await archiverOf(t).runOnce()).toBe(1);
    const files = await chunksByFile(t.database.db, task.id);
    expect(files.size).toBe(2);
    expect(Math.max(...files.values())).toBeGreaterThan(2 * DROP_BATCH);
    await clearChunkAudit(t.database.db);
    return { id: task.id, files };
  }

  it("purges a deleted track by hiding its files first, then dropping chunks a batch at a time", async () => {
    const { id, files } = await archivedResult();
    const deleted = await t.request(`/api/tasks/${id}`, {
      method: "DELETE",
      session: user.session,
    });
    expect(deleted.status).toBe(200);
    await t.emu.control.clock.advance(10_000);
    expect(await t.backend.deps.services.taskPurge.runOnce()).toBe(1);

    expectRemovedInSmallSteps(await readChunkAudit(t.database.db), files);
    expect(await storedRows(t, id)).toEqual({ files: 0, chunks: 0, peaks: 0 });
  });

  it("expires a result past retention by hiding its files first, then dropping chunks a batch at a time", async () => {
    const { id, files } = await archivedResult();
    await t.emu.control.clock.advance(8 * DAY);
    expect(await t.backend.deps.services.archive.retention.runOnce()).toBe(1);

    expectRemovedInSmallSteps(await readChunkAudit(t.database.db), files);
    expect((await getTask(t, user.session, id)).archive).toMatchObject({ status: "expired" });
    expect(await storedRows(t, id)).toEqual({ files: 0, chunks: 0, peaks: 0 });
  });
});
