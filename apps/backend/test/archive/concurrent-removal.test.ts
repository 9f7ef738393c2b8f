import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DROP_BATCH } from "../../src/services/archive/chunks.ts";
import { archiverOf, finishedTask } from "../support/archive.ts";
import {
  chunksByFile,
  clearChunkAudit,
  installChunkAudit,
  readChunkAudit,
} from "../support/chunk-audit.ts";
import { describePg } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/** 60 s of the emulator's default WAV: some 40 chunks. */
const SECONDS = 60;

/**
 * Two removals of one file can overlap on Postgres: a purge's tasks are unlocked once their files
 * are hidden, so another instance's round takes them again, and retention's sweep of abandoned
 * files takes any hidden file. Neither may end up deleting the rest of the file in one statement.
 */
describePg("removing an archived file twice at once [pg]", () => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver: "pg", emulator: { maxAudioSeconds: SECONDS } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    await installChunkAudit(t.database.db);
  });
  afterAll(() => t.close());

  /** Whether a statement on the suite's database (not another suite's) waits for a lock. */
  async function someoneWaits(): Promise<boolean> {
    const [row] = await selectRows<{ waiting: boolean }>(
      t.database.db,
      sql`select exists (select 1 from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock') as waiting`,
    );
    return row?.waiting === true;
  }

  it("drops a file's chunks a batch at a time while another removal holds some of them", async () => {
    const task = await finishedTask(t, user.session, { duration: SECONDS });
    expect(await archiverOf(t).runOnce()).toBe(1);
    const files = await chunksByFile(t.database.db, task.id);
    const [id, chunks] = [...files].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
    expect(chunks).toBeGreaterThan(2 * DROP_BATCH);
    await t.database.db.execute(sql`update archive_files set complete = false where id = ${id}`);
    await clearChunkAudit(t.database.db);

    // The other removal, caught with its first batch deleted and not yet committed.
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    await other.query("begin");
    await other.query("delete from archive_chunks where file_id = $1 and seq < $2", [
      id,
      DROP_BATCH,
    ]);
    const removal = t.backend.deps.services.archive.files.discard([
      { id, storage: "postgres", path: null },
    ]);
    const ended = removal.then(() => true);
    // Until this removal waits for the other's locks (or, unexpectedly, ends without waiting).
    while (!(await Promise.race([ended, someoneWaits()]))) await sleep(10);
    await other.query("commit");
    await other.end();
    await removal;

    const drops = (await readChunkAudit(t.database.db)).filter((row) => row.what === "drop");
    const perXact = new Map<string, number>();
    for (const row of drops) perXact.set(row.xact, (perXact.get(row.xact) ?? 0) + row.chunks);
    expect(Math.max(...perXact.values())).toBeLessThanOrEqual(DROP_BATCH);
    expect(drops.reduce((sum, row) => sum + row.chunks, 0)).toBe(chunks);
    expect((await chunksByFile(t.database.db, task.id)).has(id)).toBe(false);
  });
});
