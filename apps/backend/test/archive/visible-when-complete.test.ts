import { setImmediate as nextTurn } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { archiverOf, finishedTask, originalBytes, storedRows } from "../support/archive.ts";
import { chunksByFile, installChunkAudit, readChunkAudit } from "../support/chunk-audit.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/** 60 s of 48 kHz stereo: 11.5 MB, a quarter of the longest track. */
const SECONDS = 60;
/**
 * A result is written in small transactions, so the database is never held long, and becomes
 * visible only with its last chunk and its `complete` mark: while it is written, readers see no
 * file, no bytes used, and the task still pending.
 */
describeEachDriver("archiving in small steps, visible when complete", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({
      driver,
      emulator: { maxAudioSeconds: SECONDS, audioFormat: "studio" },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    await installChunkAudit(t.database.db);
  });
  afterAll(() => t.close());

  it("shows readers nothing until the whole result is stored, and writes one chunk per transaction", async () => {
    const task = await finishedTask(t, user.session);
    let done = false;
    const round = archiverOf(t)
      .runOnce()
      .finally(() => (done = true));
    let midway = 0;
    while (!done) {
      // PGlite answers in microtasks: without a turn of the event loop the archiver never runs.
      await nextTurn();
      const [row] = await selectRows<{ chunks: string; status: string }>(
        t.database.db,
        sql`select (select count(*) from archive_chunks c join archive_files f on f.id = c.file_id
                     where f.task_id = ${task.id}) as chunks,
                   (select archive_status from tasks where id = ${task.id}) as status`,
      );
      if (Number(row?.chunks) === 0 || row?.status === "archived") continue;
      const audio = await t.request(`/api/tasks/${task.id}/audio`, { session: user.session });
      const usage = (await (await t.request("/api/archive", { session: user.session })).json()) as {
        used_bytes: number;
      };
      // On pg the commit may land between the reads: only reads that ended before it count.
      if ((await getTask(t, user.session, task.id)).archive?.status === "archived") continue;
      midway += 1;
      expect(audio.status).toBe(404);
      expect(usage.used_bytes).toBe(0);
    }
    expect(await round).toBe(1);
    expect(midway).toBeGreaterThan(0);
    // The database is held one 64 KiB chunk at a time: each insert of chunks is one row in a
    // transaction of its own, written while the file is still invisible.
    const writes = (await readChunkAudit(t.database.db)).filter((row) => row.what === "write");
    const chunks = [...(await chunksByFile(t.database.db, task.id)).values()];
    expect(writes).toHaveLength(chunks.reduce((sum, n) => sum + n, 0));
    expect(writes.every((row) => row.chunks === 1 && row.file_complete === false)).toBe(true);
    expect(new Set(writes.map((row) => row.xact)).size).toBe(writes.length);
    expect((await getTask(t, user.session, task.id)).archive?.status).toBe("archived");
    expect(await storedRows(t, task.id)).toMatchObject({ files: 2, peaks: 1 });
    const whole = await t.request(`/api/tasks/${task.id}/audio`, { session: user.session });
    const original = await originalBytes(t, task.file_url ?? "");
    expect(Number(whole.headers.get("content-length"))).toBe(original.byteLength);
    await whole.body?.cancel();
  });
});
