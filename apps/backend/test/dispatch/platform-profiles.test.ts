/**
 * The flows whose point is the platform's answers, against both emulator profiles (issue 11
 * item 6): sign-in, submit, webhooks to completion, polling to completion, both failure shapes,
 * quota exhaustion (429) and the result link. The rest of the suite runs on the readable profile;
 * these are the shapes where the live platform differs (docs/platform-facts.md).
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signedLinkExpiresAt } from "@overture/core/schemas";
import type { ProfileName } from "@overture/platform-emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILE_TTL_MS } from "../../src/services/tasks/merge.ts";
import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { PLATFORM_BASE_URL, startTestBackend, type TestBackend } from "../support/harness.ts";
import { describeEachProfile } from "../support/profiles.ts";
import {
  createTask,
  getTask,
  setUpTaskUser,
  submitCount,
  type TaskUser,
} from "../support/tasks.ts";

const DAY = 86_400_000;
/** Task ids as each profile makes them. */
const TASK_ID: Record<ProfileName, RegExp> = {
  readable: /^task_[A-Za-z0-9_-]+$/,
  live: /^[A-Z0-9]{32}$/,
};
/** The output fields a profile names its result link with, over two consecutive tasks. */
const LINK_FIELDS: Record<ProfileName, string[]> = {
  readable: ["file_url", "file_url"],
  live: ["file_url", "url"],
};
/** Whether `output.error` of two consecutive failures is an object or a string. */
const FAILURE_SHAPES: Record<ProfileName, string[]> = {
  readable: ["object", "object"],
  live: ["object", "string"],
};

describeEachProfile("platform answers end to end", (profile, driver) => {
  let t: TestBackend;
  let archiveDir: string;
  /** demo: webhook secret stored, so tasks finish by webhooks. */
  let hooked: TaskUser;
  /** ada in overture-lab: no secret, so tasks finish by polling. */
  let polled: TaskUser;

  beforeAll(async () => {
    archiveDir = await mkdtemp(join(tmpdir(), "overture-profiles-"));
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_DIR: archiveDir },
      // Short audio keeps the archive downloads small; shapes do not depend on the length.
      emulator: { profile, maxAudioSeconds: 1 },
    });
    hooked = await setUpTaskUser(t, { webhookSecret: true });
    polled = await setUpTaskUser(t, { login: "ada", namespace: "overture-lab" });
    t.emu.control.setQuota(hooked.namespace, 100);
    t.emu.control.setQuota(polled.namespace, 100);
  });
  afterAll(async () => {
    await t.close();
    await rm(archiveDir, { recursive: true, force: true });
  });

  /** The platform's record of a task (the record endpoint's view, in the profile's shape). */
  const platformTask = (task: TaskJson) => {
    const record = t.emu.control.getTask(task.platform_task_id ?? "");
    if (!record) throw new Error(`the platform has no task ${task.platform_task_id}`);
    return record;
  };
  const linkField = (task: TaskJson) =>
    Object.keys(platformTask(task).output).find((k) => k === "file_url" || k === "url");

  async function pollUntilFinished(session: string, ids: string[]): Promise<TaskJson[]> {
    for (let round = 0; round < 12; round++) {
      const tasks = await Promise.all(ids.map((id) => getTask(t, session, id)));
      if (tasks.every((task) => task.finished_at !== null)) return tasks;
      await t.emu.control.clock.advance(10_000);
      await t.backend.deps.services.reconciler.runOnce();
    }
    throw new Error("tasks did not finish within 12 poll rounds");
  }

  /** Checks a success against the platform's record: its link, whichever field named it. */
  function expectResult(task: TaskJson) {
    const record = platformTask(task);
    expect(task).toMatchObject({ status: "success", error: null });
    const output = record.output;
    expect(task.file_url).toBe(output.file_url ?? output.url);
    // Live links are pre-signed for 7 days and say so; readable ones get the 24 h estimate from
    // the platform's completed_at, which both profiles send in ms.
    const expiresAt = Date.parse(task.file_expires_at ?? "");
    const completedAt = Number(record.completed_at);
    if (profile === "live") {
      expect(expiresAt).toBe(signedLinkExpiresAt(task.file_url ?? ""));
      expect(expiresAt - completedAt).toBeGreaterThan(7 * DAY - 1_000);
    } else expect(expiresAt).toBe(completedAt + FILE_TTL_MS);
  }

  it("signs in and lists the namespace's access tokens", async () => {
    const me = await t.request("/api/me", { session: hooked.session });
    expect(await me.json()).toMatchObject({ grant: { status: "active" } });
    const listed = await t.request("/api/namespaces/demo/tokens", { session: hooked.session });
    expect(listed.status).toBe(200);
  });

  it("submits with a callback URL and records both tasks' results from webhooks alone", async () => {
    const tasks = [await createTask(t, hooked.session), await createTask(t, hooked.session)];
    for (const task of tasks) {
      expect(task).toMatchObject({ status: "waiting", webhook_expected: true });
      expect(task.platform_task_id).toMatch(TASK_ID[profile]);
    }
    const calls = t.platformCalls.length;
    await t.emu.control.clock.advance(10_000);
    const done = await Promise.all(tasks.map((task) => getTask(t, hooked.session, task.id)));
    for (const task of done) expectResult(task);
    expect(done.map(linkField)).toEqual(LINK_FIELDS[profile]);
    // Webhooks alone: no poll and no other platform call since the submits.
    expect(t.platformCalls.slice(calls)).toEqual([]);
  });

  it("submits without a callback URL and records both tasks' results by polling", async () => {
    const tasks = [await createTask(t, polled.session), await createTask(t, polled.session)];
    expect(tasks.map((task) => task.webhook_expected)).toEqual([false, false]);
    const done = await pollUntilFinished(
      polled.session,
      tasks.map((task) => task.id),
    );
    for (const task of done) expectResult(task);
    expect(done.map(linkField).sort()).toEqual([...LINK_FIELDS[profile]].sort());
  });

  it("archives each result from the platform's link and serves it", async () => {
    const tasks = [await createTask(t, hooked.session), await createTask(t, hooked.session)];
    await t.emu.control.clock.advance(10_000);
    const archiver = t.backend.deps.services.archive.archiver;
    if (!archiver) throw new Error("archiving is on by default, so the archiver must exist");
    expect(await archiver.runOnce()).toBeGreaterThanOrEqual(2);
    for (const task of tasks) {
      const finished = await getTask(t, hooked.session, task.id);
      expect(finished.file_url?.startsWith(`${PLATFORM_BASE_URL}/`)).toBe(true);
      const audio = await t.request(`/api/tasks/${task.id}/audio`, { session: hooked.session });
      expect(audio.status).toBe(200);
      const bytes = new Uint8Array(await audio.arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(8, 12))).toBe("WAVE");
    }
  });

  it("puts a task refused with 429 (quota exhausted) back in the queue and runs it when the quota frees", async () => {
    t.emu.control.setQuota(hooked.namespace, 0);
    const task = await createTask(t, hooked.session);
    expect(task.status).toBe("queued");
    // Claim and submit as if the quota looked free: the platform answers 429, the task waits.
    const submits = submitCount(t);
    await t.backend.deps.services.taskQueue.drain(
      { userId: hooked.userId, namespace: hooked.namespace },
      1,
    );
    expect(submitCount(t)).toBe(submits + 1);
    expect(t.platformCalls.at(-1)).toMatchObject({ method: "POST", status: 429 });
    expect(await getTask(t, hooked.session, task.id)).toMatchObject({
      status: "queued",
      platform_task_id: null,
      error: null,
    });
    t.emu.control.setQuota(hooked.namespace, 100);
    await t.backend.deps.services.taskQueue.runOnce();
    await t.emu.control.clock.advance(10_000);
    expectResult(await getTask(t, hooked.session, task.id));
  });

  describe("when every task fails", () => {
    let failing: TestBackend;
    beforeAll(async () => {
      failing = await startTestBackend({
        driver,
        emulator: { profile, timing: { failureRate: 1 } },
      });
    });
    afterAll(() => failing.close());

    it("records the platform's failure text from a webhook and from a poll, in both error shapes", async () => {
      const viaHook = await setUpTaskUser(failing, { webhookSecret: true });
      const viaPoll = await setUpTaskUser(failing, { login: "ada", namespace: "overture-lab" });
      const first = await createTask(failing, viaHook.session);
      const second = await createTask(failing, viaPoll.session);
      for (let round = 0; round < 12; round++) {
        await failing.emu.control.clock.advance(10_000);
        await failing.backend.deps.services.reconciler.runOnce();
      }
      const done = [
        await getTask(failing, viaHook.session, first.id),
        await getTask(failing, viaPoll.session, second.id),
      ];
      const shapes: string[] = [];
      for (const task of done) {
        const record = failing.emu.control.getTask(task.platform_task_id ?? "");
        const error = (record?.output as { error?: unknown } | null)?.error;
        shapes.push(typeof error);
        const text = typeof error === "string" ? error : (error as { message: string }).message;
        expect(task.status).toBe("failure");
        expect(task.error).toContain(text);
        expect(task.file_url).toBeNull();
      }
      expect(shapes).toEqual(FAILURE_SHAPES[profile]);
    });
  });
});
