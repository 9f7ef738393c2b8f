import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tasks } from "../../src/db/schema/index.ts";
import type { Archiver } from "../../src/services/archive/archiver.ts";
import { archiverOf } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { PLATFORM_BASE_URL, startTestBackend, type TestBackend } from "../support/harness.ts";
import { createTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

// Whoever can sign a webhook chooses `file_url`, so the archiver must only fetch the platform's
// origin and ARCHIVE_ALLOWED_HOSTS, redirects included (SECURITY.md).
describeEachDriver("result archiving allow-list", (driver) => {
  let t: TestBackend;
  let dir: string;
  let user: TaskUser;
  let archiver: Archiver;
  /** Every URL the archiver's injected fetch was asked for. */
  const fetched: string[] = [];
  /** Paths the "platform" answers with a 302 to the given Location. */
  const redirects = new Map<string, string>();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "overture-archive-hosts-"));
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_DIR: dir, ARCHIVE_ALLOWED_HOSTS: "files.cdn.test" },
      emulator: { maxAudioSeconds: 1 },
      // The harness answers every host from the emulator, so a refused host is only proven
      // unrequested by this record.
      rewritePlatformResponse: (path, response, request) => {
        fetched.push(request.url);
        const location = redirects.get(path);
        if (!location) return response;
        // The in-process fetch never follows redirects; a real one would, unless told "manual".
        if (request.redirect !== "manual") fetched.push(new URL(location, request.url).href);
        return new Response(null, { status: 302, headers: { location } });
      },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    const configured = t.backend.deps.services.archive.archiver;
    if (!configured) throw new Error("archiving is on by default, so the archiver must exist");
    archiver = configured;
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A finished task whose result URL is `fileUrl(id, original)`, ready to archive. */
  async function finishedTask(fileUrl: (id: string, original: string) => string) {
    const task = await createTask(t, user.session);
    await t.emu.control.clock.advance(10_000);
    const [row] = await t.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    if (row?.archiveStatus !== "pending" || !row.fileUrl) throw new Error("task not finished");
    const url = fileUrl(task.id, row.fileUrl);
    await t.database.db.update(tasks).set({ fileUrl: url }).where(eq(tasks.id, task.id));
    return { id: task.id, url, path: new URL(row.fileUrl).pathname };
  }

  async function archiveState(id: string) {
    const [row] = await t.database.db
      .select({
        status: tasks.archiveStatus,
        attempts: tasks.archiveAttempts,
        nextAt: tasks.archiveNextAt,
      })
      .from(tasks)
      .where(eq(tasks.id, id));
    return row;
  }

  it("archives a result from the platform's own origin", async () => {
    const task = await finishedTask((_id, original) => original);
    expect(task.url.startsWith(`${PLATFORM_BASE_URL}/`)).toBe(true);
    expect(await archiver.runOnce()).toBe(1);
    expect(await archiveState(task.id)).toMatchObject({ status: "archived" });
    expect(fetched).toContain(task.url);
  });

  it("refuses a result on a foreign host without requesting it, failing at once", async () => {
    const task = await finishedTask((_id, original) => {
      const url = new URL(original);
      return `http://169.254.169.254${url.pathname}?token=leak-me`;
    });
    const before = fetched.length;
    await archiver.runOnce();
    expect(fetched.slice(before)).toEqual([]);
    expect(await archiveState(task.id)).toEqual({ status: "failed", attempts: 1, nextAt: null });
    const logged = t.logs.filter((line) => line.includes(task.id)).join("\n");
    expect(logged).toContain('refused: host \\"169.254.169.254\\"');
    expect(logged).not.toContain("leak-me");
  });

  it("refuses a redirect from the platform to a foreign host without following it", async () => {
    const task = await finishedTask((id) => `${PLATFORM_BASE_URL}/moved/${id}`);
    redirects.set(`/moved/${task.id}`, `http://internal.test${task.path}`);
    const before = fetched.length;
    await archiver.runOnce();
    expect(fetched.slice(before)).toEqual([task.url]);
    expect(await archiveState(task.id)).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("follows a redirect that stays on the allow-list", async () => {
    const task = await finishedTask((id) => `${PLATFORM_BASE_URL}/moved/${id}`);
    redirects.set(`/moved/${task.id}`, `http://files.cdn.test${task.path}`);
    await archiver.runOnce();
    expect(await archiveState(task.id)).toMatchObject({ status: "archived" });
  });

  it("archives a refused result once a restart allows its host, while its link works", async () => {
    const task = await finishedTask((_id, original) => {
      const url = new URL(original);
      return `http://late.cdn.test${url.pathname}`;
    });
    await archiver.runOnce();
    expect(await archiveState(task.id)).toMatchObject({ status: "failed", attempts: 1 });
    // The operator adds the host and restarts: the new instance's archiver starts.
    const restarted = await t.openSecondInstance((config) => ({
      ...config,
      archive: {
        ...config.archive,
        allowedHosts: [...config.archive.allowedHosts, { hostname: "late.cdn.test" }],
      },
    }));
    const again = archiverOf(restarted);
    await again.adoptUnarchived();
    expect(await archiveState(task.id)).toMatchObject({ status: "pending", attempts: 0 });
    await again.runOnce();
    expect(await archiveState(task.id)).toMatchObject({ status: "archived" });
    expect(fetched).toContain(task.url);
  });

  it("leaves a refused result refused when a restart still does not allow its host", async () => {
    const task = await finishedTask((_id, original) => {
      const url = new URL(original);
      return `http://other.cdn.test${url.pathname}`;
    });
    await archiver.runOnce();
    await archiver.adoptUnarchived();
    expect(await archiveState(task.id)).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("downloads from a host listed in ARCHIVE_ALLOWED_HOSTS", async () => {
    const task = await finishedTask((_id, original) => {
      const url = new URL(original);
      return `http://files.cdn.test${url.pathname}`;
    });
    await archiver.runOnce();
    expect(fetched).toContain(task.url);
    expect(await archiveState(task.id)).toMatchObject({ status: "archived" });
  });
});
