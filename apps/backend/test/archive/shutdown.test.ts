import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Task } from "../../src/schemas/task.ts";
import { archiverOf, fileDownloads, finishedTask } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { waitFor } from "../support/live.ts";
import { selectRows } from "../support/sql.ts";
import { getTask, setUpTaskUser } from "../support/tasks.ts";

const RESULTS = 4;
/** The shutdown must end well inside the 30 s grace (compose, the guide); a download here takes minutes. */
const STOP_BUDGET_MS = 5_000;

/** A result file's body, dribbled out slowly while `slow` is on: a download stays in flight. */
function throttled(response: Response, slow: { on: boolean }): Response {
  if (!slow.on || !response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value.subarray(0, 16 * 1024));
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * SIGTERM (the server's close: `beginShutdown`, then `stop`) while results are being archived:
 * nothing new is claimed, the download in flight is aborted, its lease released at once and its
 * scratch folder removed, so the stop fits the grace period and the next start archives them all.
 */
describeEachDriver("archiving stopped by a shutdown", (driver) => {
  let t: TestBackend;
  const slow = { on: true };
  const savedTmp = process.env.TMPDIR;
  const scratch = mkdtempSync(join(tmpdir(), "overture-shutdown-test-"));
  beforeAll(async () => {
    process.env.TMPDIR = scratch; // os.tmpdir() reads it at each call
    t = await startTestBackend({
      driver,
      emulator: { maxAudioSeconds: 20 },
      rewritePlatformResponse: (path, response) =>
        path.startsWith("/files/") ? throttled(response, slow) : response,
    });
  });
  afterAll(async () => {
    await t.close();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(scratch, { recursive: true, force: true });
  });

  // Only the archiver's folders: run from source, the analysis thread's tsx keeps a cache there.
  const ourScratch = () => readdirSync(scratch).filter((n) => n.startsWith("overture-archive-"));

  it("claims nothing new, aborts, releases the lease, leaves no scratch; a restart archives all", async () => {
    const user = await setUpTaskUser(t, { webhookSecret: true });
    const results: Task[] = [];
    for (let i = 0; i < RESULTS; i += 1) results.push(await finishedTask(t, user.session));
    const round = archiverOf(t).runOnce();
    await waitFor(
      "a download in flight",
      () => results.some((r) => fileDownloads(t, r.file_url ?? "") > 0),
      10_000,
      20,
    );
    expect(ourScratch()).toHaveLength(1);

    const signalled = Date.now();
    await t.backend.beginShutdown();
    await t.backend.stop();
    expect(Date.now() - signalled).toBeLessThan(STOP_BUDGET_MS);
    await round;

    const downloads = results.map((r) => fileDownloads(t, r.file_url ?? ""));
    expect(downloads.reduce((a, b) => a + b, 0)).toBe(1); // none claimed after the signal
    const now = t.clock.now();
    const rows = await selectRows<{ archive_status: string; leased: boolean; attempts: number }>(
      t.database.db,
      sql`select archive_status, archive_attempts as attempts,
            archive_next_at > ${new Date(now).toISOString()}::timestamptz as leased
          from tasks where user_id = ${user.userId}`,
    );
    expect(rows).toHaveLength(RESULTS);
    for (const row of rows)
      expect(row).toMatchObject({ archive_status: "pending", leased: false, attempts: 0 });
    expect(ourScratch()).toEqual([]);

    slow.on = false;
    const restarted = await t.openSecondInstance();
    expect(await archiverOf(restarted).runOnce()).toBe(RESULTS);
    for (const result of results)
      expect((await getTask(t, user.session, result.id)).archive?.status).toBe("archived");
    expect(ourScratch()).toEqual([]);
  });
});
