import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { archiverOf, fileDownloads, finishedTask } from "../support/archive.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { getTask, setUpTaskUser } from "../support/tasks.ts";

const UNWRITABLE = "/nonexistent/overture-scratch";

/**
 * The archiver downloads into a scratch folder (the system's temporary folder with Postgres
 * storage). Without one (systemd's ProtectSystem=strict makes /tmp read-only unless PrivateTmp)
 * results wait, said loudly, and are archived once it works: none fails for the machine's fault.
 */
describeEachDriver("archiving without a scratch folder", (driver) => {
  let t: TestBackend;
  const tmpdir = process.env.TMPDIR;
  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { maxAudioSeconds: 1 } });
  });
  afterEach(() => {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  });
  afterAll(() => t.close());

  it("keeps a result waiting a minute, no attempt spent, and archives it once the folder works", async () => {
    const user = await setUpTaskUser(t, { webhookSecret: true });
    const done = await finishedTask(t, user.session);
    process.env.TMPDIR = UNWRITABLE; // os.tmpdir() reads it at each call
    expect(await archiverOf(t).runOnce()).toBe(0);
    expect(fileDownloads(t, done.file_url ?? "")).toBe(0);
    const waiting = (await getTask(t, user.session, done.id)).archive;
    expect(waiting).toMatchObject({ status: "pending", error: null });
    const logged = t.logs.filter((line) => line.includes("no scratch folder")).join("\n");
    expect(logged).toContain(UNWRITABLE);
    expect(logged).toContain(done.id);

    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    await t.emu.control.clock.advance(59_000);
    expect(await archiverOf(t).runOnce()).toBe(0); // not before its minute
    await t.emu.control.clock.advance(1_000);
    expect(await archiverOf(t).runOnce()).toBe(1);
    expect((await getTask(t, user.session, done.id)).archive?.status).toBe("archived");
  });
});
