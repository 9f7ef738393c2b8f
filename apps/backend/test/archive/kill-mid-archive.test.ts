import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningEmulator } from "@overture/platform-emulator/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../../src/db/open.ts";
import type { Task } from "../../src/schemas/task.ts";
import { childBackend, type ChildBackend } from "../support/child-backend.ts";
import { describeEachDriver } from "../support/drivers.ts";
import {
  freePort,
  liveClient,
  liveDatabase,
  liveEnv,
  sleep,
  startLiveEmulator,
  waitFor,
} from "../support/live.ts";
import { selectRows } from "../support/sql.ts";

/** 120 s of 48 kHz stereo: 23 MB, a few hundred chunks, so the kill lands mid-write. */
const SECONDS = 120;

/**
 * SIGKILL while a result is being written (no shutdown path runs): readers see nothing of it,
 * the half-written rows are removed when it is claimed again, the next start removes the scratch
 * folder, and the result is then archived whole.
 */
describeEachDriver("the backend SIGKILLed mid-archive [child process]", (driver) => {
  let emu: RunningEmulator;
  let child: ChildBackend;
  let database: Awaited<ReturnType<typeof liveDatabase>>;
  const scratch = mkdtempSync(join(tmpdir(), "overture-kill-archive-"));
  const scratchFolders = () =>
    readdirSync(scratch).filter((name) => name.startsWith("overture-archive-"));
  beforeAll(async () => {
    database = await liveDatabase(driver);
    const port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`, {
      audioFormat: "studio",
      maxAudioSeconds: SECONDS,
      timing: { waitingMs: 100, runningMs: 500, failureRate: 0 },
    });
    child = childBackend(
      liveEnv(port, emu.url, database.database, {
        ARCHIVE_STORAGE: "postgres",
        TMPDIR: scratch,
      }),
    );
    await child.start();
  }, 90_000);
  afterAll(async () => {
    await child.stop();
    await emu.close();
    await database.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** What the database holds of the task's archive (read while the backend is down). */
  async function stored(taskId: string) {
    const db = await openDatabase(
      "url" in database.database
        ? { driver: "pg", url: database.database.url }
        : { driver: "pglite", dataDir: database.database.dataDir },
    );
    try {
      const [row] = await selectRows<{ complete: string; partial: string; chunks: string }>(
        db.db,
        sql`select
          (select count(*) from archive_files where task_id = ${taskId} and complete) as complete,
          (select count(*) from archive_files where task_id = ${taskId} and not complete) as partial,
          (select count(*) from archive_chunks c join archive_files f on f.id = c.file_id
            where f.task_id = ${taskId}) as chunks`,
      );
      // The kill left the lease, no longer renewed: the test stands in for its minute running out.
      await db.db.execute(sql`update tasks set archive_next_at = now() where id = ${taskId}`);
      return {
        complete: Number(row?.complete),
        partial: Number(row?.partial),
        chunks: Number(row?.chunks),
      };
    } finally {
      await db.close();
    }
  }

  it("leaves nothing a reader sees, and archives the result whole after the restart", async () => {
    const client = liveClient(child.url);
    const session = await client.signIn();
    await client.prepareTasks(session, emu);
    const created = await client.request("/api/tasks", {
      method: "POST",
      session,
      body: JSON.stringify({ prompt: "killed mid-archive", duration: SECONDS }),
    });
    const task = (await created.json()) as Task;
    const storing = () => child.lines.some((l) => l.includes("archiving: storing a result"));
    await waitFor("the archiver to store the result", storing, 60_000, 10);
    await sleep(300);
    await child.kill("SIGKILL");
    expect(scratchFolders()).toHaveLength(1);

    const left = await stored(task.id);
    expect(left.complete).toBe(0);
    expect(left.partial).toBeGreaterThan(0); // the kill did land mid-write
    expect(left.chunks).toBeGreaterThan(0);

    await child.start();
    const audio = () => client.request(`/api/tasks/${task.id}/audio`, { session });
    const first = await audio();
    expect(first.status).toBe(404);
    await first.body?.cancel();
    let done: Task | undefined;
    await waitFor(
      "the result archived after the restart",
      async () => {
        const seen = await client.request(`/api/tasks/${task.id}`, { session });
        done = (await seen.json()) as Task;
        return done.archive?.status === "archived";
      },
      60_000,
    );
    const whole = new Uint8Array(await (await audio()).arrayBuffer());
    const original = new Uint8Array(await (await fetch(done?.file_url ?? "")).arrayBuffer());
    expect(whole.byteLength).toBe(original.byteLength);
    expect(Buffer.from(whole).equals(Buffer.from(original))).toBe(true);
    expect(scratchFolders()).toEqual([]); // removed by the start
  }, 180_000);

  it("stops well inside the 30 s grace on SIGTERM with four results in flight, and archives all after", async () => {
    const client = liveClient(child.url);
    const session = await client.signIn();
    const tasks: Task[] = [];
    for (let i = 0; i < 4; i += 1) {
      const created = await client.request("/api/tasks", {
        method: "POST",
        session,
        body: JSON.stringify({ prompt: `stopped ${i}`, duration: SECONDS }),
      });
      tasks.push((await created.json()) as Task);
    }
    const before = child.lines.filter((l) => l.includes("archiving: storing a result")).length;
    await waitFor(
      "the archiver to store one of them",
      () => child.lines.filter((l) => l.includes("archiving: storing a result")).length > before,
      60_000,
      10,
    );
    const signalled = Date.now();
    await child.stop();
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(child.lines.at(-1)).toContain('"stopped"');
    expect(scratchFolders()).toEqual([]);

    await child.start();
    await waitFor(
      "all four archived after the restart",
      async () => {
        const seen = await client.listTasks(session);
        return tasks.every(
          (task) => seen.find((t) => t.id === task.id)?.archive?.status === "archived",
        );
      },
      150_000,
      500,
    );
  }, 240_000);
});
