import { afterAll, beforeAll, expect, it } from "vitest";
import type { Task } from "../../src/schemas/task.ts";
import { archiverOf, fileDownloads, originalBytes, sameBytes } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/harness.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const TASKS = 4;

/**
 * Two backend instances on one database (pg: two connection pools, so the claims really
 * contend): both archivers run at once over the same finished results. Each result is
 * downloaded from the platform once, by one of them, and both instances serve every result.
 */
describeEachDriver("archived results across two instances", (driver) => {
  let t: TestBackend;
  let sibling: TestInstance;
  let user: TaskUser;
  let finished: Task[];

  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { maxAudioSeconds: 8 } });
    sibling = await t.openSecondInstance();
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, TASKS);
    const created = [];
    for (let i = 0; i < TASKS; i += 1) created.push(await createTask(t, user.session));
    await t.emu.control.clock.advance(60_000);
    finished = await Promise.all(created.map((task) => getTask(t, user.session, task.id)));
    expect(finished.map((task) => task.status)).toEqual(Array(TASKS).fill("success"));
  });
  afterAll(() => t.close());

  it("downloads each result once although both archivers run at the same time", async () => {
    // (A second call on one instance joins its round in progress, so one call each.)
    const claimed = await Promise.all([archiverOf(t).runOnce(), archiverOf(sibling).runOnce()]);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(TASKS);
    for (const task of finished) expect(fileDownloads(t, task.file_url ?? "")).toBe(1);
  });

  it("serves every result, whole and by range, from the instance that did not archive it", async () => {
    for (const task of finished) {
      expect((await getTask(sibling, user.session, task.id)).archive?.status).toBe("archived");
      const original = await originalBytes(t, task.file_url ?? "");
      for (const instance of [t, sibling]) {
        const part = await instance.request(`/api/tasks/${task.id}/audio`, {
          session: user.session,
          headers: { Range: "bytes=1000-270999" },
        });
        expect(part.status).toBe(206);
        expect(
          sameBytes(new Uint8Array(await part.arrayBuffer()), original.slice(1000, 271_000)),
        ).toBe(true);
        const mp3 = await instance.request(`/api/tasks/${task.id}/audio?format=mp3`, {
          session: user.session,
          headers: { Range: "bytes=0-1" },
        });
        expect(mp3.status).toBe(206);
        const peaks = await instance.request(`/api/tasks/${task.id}/peaks`, {
          session: user.session,
        });
        expect(peaks.status).toBe(200);
      }
    }
  });
});
