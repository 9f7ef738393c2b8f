import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LEASE_MS } from "../../src/services/archive/leases.ts";
import { archiverOf, fileDownloads, finishedTask } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/harness.ts";
import { gatedDownloads, gatedFiles, handTimers, ownArchiver } from "../support/lease-fakes.ts";
import { waitFor } from "../support/live.ts";
import { selectRows } from "../support/sql.ts";
import { setUpTaskUser, type TaskUser } from "../support/tasks.ts";

/** The test's clock moves this much between two renewals (well inside a lease). */
const STEP = 15_000;
/** How long the slow archives below run: the lease many times over, and ten minutes too. */
const LONG = 11 * 60_000;

/**
 * The archiver's lease on a claimed result is short and renewed by a heartbeat while it works
 * (the test fires the renewals by hand and moves the shared manual clock): a slow archive keeps
 * its result, a dead or stalled one loses it within a minute, and a claimer that lost its lease
 * stops, spending no attempt and leaving the new claimer's rows and lease alone.
 */
describeEachDriver("archive leases", (driver) => {
  let t: TestBackend;
  let sibling: TestInstance;
  let user: TaskUser;

  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { maxAudioSeconds: 8 } });
    sibling = await t.openSecondInstance();
    user = await setUpTaskUser(t, { webhookSecret: true });
  });
  afterAll(() => t.close());

  async function archiveState(taskId: string) {
    const [row] = await selectRows<{ status: string; attempts: number; next_at: string | null }>(
      t.database.db,
      sql`select archive_status as status, archive_attempts as attempts,
            archive_next_at::text as next_at from tasks where id = ${taskId}`,
    );
    return row;
  }

  /** The ids of the task's file rows not complete yet (being written). */
  async function writing(taskId: string): Promise<string[]> {
    const rows = await selectRows<{ id: string }>(
      t.database.db,
      sql`select id from archive_files where task_id = ${taskId} and not complete order by id`,
    );
    return rows.map((row) => row.id);
  }

  /** Moves the clock by `total`, a renewal every {@link STEP}. */
  async function renewFor(timers: ReturnType<typeof handTimers>, total: number) {
    for (let passed = 0; passed < total; passed += STEP) {
      await t.emu.control.clock.advance(STEP);
      await timers.renew();
    }
  }

  it("renews the lease while a slow download runs past it, so no other instance takes the result", async () => {
    const result = await finishedTask(t, user.session);
    const timers = handTimers();
    const download = gatedDownloads(t.backend.deps.fetch);
    const archiver = ownArchiver(t, { timers: timers.timers, fetch: download.fetch });
    const round = archiver.runOnce();
    try {
      await download.entered;
      await renewFor(timers, LONG);
      expect(await archiverOf(sibling).runOnce()).toBe(0);
    } finally {
      download.open();
    }
    expect(await round).toBe(1);
    expect(fileDownloads(t, result.file_url ?? "")).toBe(1);
    expect(await archiveState(result.id)).toMatchObject({ status: "archived", attempts: 0 });
  });

  it("leaves the half-written rows of an archiver that still renews its lease alone", async () => {
    const result = await finishedTask(t, user.session);
    const timers = handTimers();
    const store = gatedFiles(t.backend.deps.services.archive.files);
    const archiver = ownArchiver(t, { timers: timers.timers, files: store.files });
    const round = archiver.runOnce();
    try {
      await store.entered;
      const rows = await writing(result.id);
      expect(rows).toHaveLength(1);
      await renewFor(timers, LONG);
      expect(await archiverOf(sibling).runOnce()).toBe(0);
      expect(await writing(result.id)).toEqual(rows);
    } finally {
      store.open();
    }
    expect(await round).toBe(1);
    expect(fileDownloads(t, result.file_url ?? "")).toBe(1);
    expect(await archiveState(result.id)).toMatchObject({ status: "archived", attempts: 0 });
  });

  it("hands the result of a claimer that stopped renewing to another instance a minute later", async () => {
    const result = await finishedTask(t, user.session);
    const timers = handTimers();
    const download = gatedDownloads(t.backend.deps.fetch);
    const stalled = ownArchiver(t, { timers: timers.timers, fetch: download.fetch });
    const round = stalled.runOnce();
    try {
      await download.entered;
      await t.emu.control.clock.advance(59_000);
      expect(await archiverOf(sibling).runOnce()).toBe(0);
      await t.emu.control.clock.advance(1_000);
      expect(await archiverOf(sibling).runOnce()).toBe(1);
      expect(await archiveState(result.id)).toMatchObject({ status: "archived", attempts: 0 });
    } finally {
      await stalled.stop();
      download.open();
      await round;
    }
  });

  it("stops the work of an archiver whose lease was taken over, spending no attempt and leaving the taker's rows", async () => {
    const result = await finishedTask(t, user.session);
    const firstTimers = handTimers();
    const firstStore = gatedFiles(t.backend.deps.services.archive.files);
    const first = ownArchiver(t, { timers: firstTimers.timers, files: firstStore.files });
    const takerStore = gatedFiles(sibling.backend.deps.services.archive.files);
    const taker = ownArchiver(sibling, { timers: handTimers().timers, files: takerStore.files });
    let ended = false;
    const firstRound = first.runOnce().finally(() => {
      ended = true;
    });
    let takerRound: Promise<number> | undefined;
    try {
      await firstStore.entered;
      const [stale] = await writing(result.id);
      await t.emu.control.clock.advance(LEASE_MS); // no renewal: the first one stalls
      takerRound = taker.runOnce();
      await takerStore.entered;
      const taken = await writing(result.id);
      expect(taken).toHaveLength(1);
      expect(taken).not.toContain(stale); // its claim's lease ran out: a leftover
      const { next_at: lease } = (await archiveState(result.id)) ?? {};

      firstTimers.fire(); // the first archiver's late renewal finds the claim gone
      await waitFor("the first archiver to stop", () => ended, 10_000, 10);
      expect(firstStore.seen.abortedFirst).toBe(true);
      expect(await archiveState(result.id)).toEqual({
        status: "pending",
        attempts: 0,
        next_at: lease,
      });
      expect(await writing(result.id)).toEqual(taken);
      expect(t.logs.some((line) => line.includes("archiving stopped: the lease was lost"))).toBe(
        true,
      );
    } finally {
      firstStore.open();
      takerStore.open();
      await firstRound;
    }
    expect(await takerRound).toBe(1);
    expect(await archiveState(result.id)).toMatchObject({ status: "archived", attempts: 0 });
  });

  it("spends no attempt and keeps the taker's lease when a lost claimer's store fails before it notices", async () => {
    const result = await finishedTask(t, user.session);
    const firstStore = gatedFiles(t.backend.deps.services.archive.files);
    const first = ownArchiver(t, { timers: handTimers().timers, files: firstStore.files });
    const takerStore = gatedFiles(sibling.backend.deps.services.archive.files);
    const taker = ownArchiver(sibling, { timers: handTimers().timers, files: takerStore.files });
    const firstRound = first.runOnce();
    let takerRound: Promise<number> | undefined;
    try {
      await firstStore.entered;
      await t.emu.control.clock.advance(LEASE_MS);
      takerRound = taker.runOnce();
      await takerStore.entered;
      const taken = await writing(result.id);
      const { next_at: lease } = (await archiveState(result.id)) ?? {};

      firstStore.open(); // its chunks find their file row gone
      expect(await firstRound).toBe(1);
      expect(firstStore.seen.abortedFirst).toBe(false);
      expect(await archiveState(result.id)).toEqual({
        status: "pending",
        attempts: 0,
        next_at: lease,
      });
      expect(await writing(result.id)).toEqual(taken);
    } finally {
      firstStore.open();
      takerStore.open();
    }
    expect(await takerRound).toBe(1);
    expect(await archiveState(result.id)).toMatchObject({ status: "archived", attempts: 0 });
  });

  it("deletes no rows of the taker when a claimer that lost its lease mid-download goes on to store", async () => {
    const result = await finishedTask(t, user.session);
    const download = gatedDownloads(t.backend.deps.fetch);
    const first = ownArchiver(t, { timers: handTimers().timers, fetch: download.fetch });
    const takerStore = gatedFiles(sibling.backend.deps.services.archive.files);
    const taker = ownArchiver(sibling, { timers: handTimers().timers, files: takerStore.files });
    const firstRound = first.runOnce();
    let takerRound: Promise<number> | undefined;
    try {
      await download.entered;
      await t.emu.control.clock.advance(LEASE_MS);
      takerRound = taker.runOnce();
      await takerStore.entered;
      const taken = await writing(result.id);
      const { next_at: lease } = (await archiveState(result.id)) ?? {};

      download.open(); // the first archiver finishes its download before any renewal
      expect(await firstRound).toBe(1);
      expect(await writing(result.id)).toEqual(taken);
      expect(await archiveState(result.id)).toEqual({
        status: "pending",
        attempts: 0,
        next_at: lease,
      });
    } finally {
      download.open();
      takerStore.open();
    }
    expect(await takerRound).toBe(1);
    expect(await archiveState(result.id)).toMatchObject({ status: "archived", attempts: 0 });
  });
});
