import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Archiver } from "../src/services/tasks/archiver.ts";
import { describeEachDriver } from "./support/drivers.ts";
import { startTestBackend, type TestBackend } from "./support/harness.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "./support/tasks.ts";

describeEachDriver("result archiving", (driver) => {
  let t: TestBackend;
  let dir: string;
  let user: TaskUser;
  let archiver: Archiver;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "overture-archive-"));
    // One second of synthesised audio keeps the download small.
    t = await startTestBackend({
      driver,
      config: { ARCHIVE_DIR: dir },
      emulator: { maxAudioSeconds: 1 },
    });
    user = await setUpTaskUser(t, { webhookSecret: true });
    // The app's own archiver: its downloads go through the backend's injected fetch, which the
    // harness routes to the in-process emulator.
    const configured = t.backend.deps.services.archiver;
    if (!configured) throw new Error("ARCHIVE_DIR is set, so the archiver must exist");
    archiver = configured;
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("downloads a finished task's result and serves it to its owner, with byte ranges", async () => {
    const task = await createTask(t, user.session);
    await t.emu.control.clock.advance(10_000);
    const done = await getTask(t, user.session, task.id);
    expect(done).toMatchObject({ status: "success", audio_url: null });
    const notYet = await t.request(`/api/tasks/${task.id}/audio`, { session: user.session });
    expect(notYet.status).toBe(404);
    expect(await notYet.json()).toMatchObject({ error: "not_archived" });

    expect(await archiver.runOnce()).toBe(1);
    const archived = await getTask(t, user.session, task.id);
    expect(archived.audio_url).toBe(`${t.config.publicUrl}/api/tasks/${task.id}/audio`);

    const original = new Uint8Array(
      await (await t.emu.app.request(done.file_url ?? "")).arrayBuffer(),
    );
    const whole = await t.request(`/api/tasks/${task.id}/audio`, { session: user.session });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toMatch(/^audio\//);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(original);

    const part = await t.request(`/api/tasks/${task.id}/audio`, {
      session: user.session,
      headers: { Range: "bytes=0-9" },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-9/${original.byteLength}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(original.slice(0, 10));
  });

  it("serves the archived file to nobody but its owner", async () => {
    const [task] = (
      (await (await t.request("/api/tasks?status=success", { session: user.session })).json()) as {
        tasks: { id: string }[];
      }
    ).tasks;
    expect((await t.request(`/api/tasks/${task?.id ?? ""}/audio`)).status).toBe(401);
    const other = await t.signIn({ login: "ada" });
    expect(
      (await t.request(`/api/tasks/${task?.id ?? ""}/audio`, { session: other.sessionToken }))
        .status,
    ).toBe(404);
  });
});
