import type { RunningEmulator } from "@overture/platform-emulator/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { childBackend, type ChildBackend } from "../support/child-backend.ts";
import { createPostgresDatabase, type TestDatabase } from "../support/databases.ts";
import { describePg } from "../support/drivers.ts";
import { leakedIn, secretValues } from "../support/leaks.ts";
import { platformFinished } from "../support/ledger.ts";
import {
  freePort,
  liveClient,
  liveEnv,
  SPREAD_TIMING,
  startLiveEmulator,
  waitFor,
} from "../support/live.ts";
import { selectRows } from "../support/sql.ts";

/**
 * The crash that can leave the platform and the backend disagreeing: the submit lands on the
 * platform (the task exists and is charged), its answer is lost, and the backend dies while still
 * waiting for it. Its row says `submitting` and holds no platform task id. A restarted backend
 * must never send it again (a duplicate, charged twice) nor leave it `submitting` forever.
 */
describePg(
  "the backend process SIGKILLed while a submit's answer is lost [pg, child process]",
  () => {
    let database: TestDatabase;
    let emu: RunningEmulator;
    let child: ChildBackend;
    let client: ReturnType<typeof liveClient>;
    let session: string;
    let env: Record<string, string>;
    /** Every secret seen in the run: the child's logs must hold none of them. */
    const secrets = new Map<string, string>();
    beforeAll(async () => {
      database = await createPostgresDatabase();
      const port = await freePort();
      emu = await startLiveEmulator(`http://127.0.0.1:${port}`, { timing: SPREAD_TIMING });
      // Short, so the restarted instance's first queue round finds the orphan.
      env = liveEnv(port, emu.url, { url: database.url ?? "" }, { TASK_STALE_SUBMIT_SECONDS: "2" });
      child = childBackend(env);
      await child.start();
      client = liveClient(child.url);
      session = await client.signIn();
      await client.prepareTasks(session, emu);
    });
    afterAll(async () => {
      secretValues(emu.control, env, secrets);
      expect(leakedIn(child.lines, secrets)).toEqual([]);
      await child.stop();
      await emu.close();
      await database.drop();
    });

    const rows = () =>
      selectRows<{ id: string; status: string; platform_task_id: string | null }>(
        database.database.db,
        sql`select id, status, platform_task_id from tasks order by created_at`,
      );

    /** Submits one task whose answer the platform withholds, SIGKILLs the backend, restarts it. */
    async function crashMidSubmit(prompt: string): Promise<{ taskId: string; platformId: string }> {
      const platformBefore = emu.control.listTasks().length;
      emu.control.faults.loseNextSubmitAnswers(1);
      const answered = client.createTask(session, prompt).then(
        () => "answered",
        () => "connection lost",
      );
      await waitFor(
        "the submit to land on the platform while the backend waits for its answer",
        async () =>
          emu.control.listTasks().length === platformBefore + 1 &&
          (await rows()).some((row) => row.status === "submitting"),
        15_000,
      );
      const taskId = (await rows()).find((row) => row.status === "submitting")?.id ?? "";
      secretValues(emu.control, env, secrets);
      await child.kill("SIGKILL");
      expect(await answered).toBe("connection lost");
      emu.control.faults.releaseHangs();
      await child.start();
      const platformId = emu.control.listTasks().at(-1)?.task_id ?? "";
      return { taskId, platformId };
    }

    it("learns the task's id and true final state from its webhooks, without resubmitting it", async () => {
      // Held until the task ends on the platform: nothing reaches the backend before the kill.
      emu.control.faults.webhooks = { reorder: true };
      const { taskId, platformId } = await crashMidSubmit("answer lost, webhooks on");
      await waitFor(
        "the task to end on the platform and its webhooks to reach the backend",
        async () => {
          const row = (await rows()).find((r) => r.id === taskId);
          return (
            platformFinished(emu.control, [platformId]) &&
            row?.status === emu.control.getTask(platformId)?.status
          );
        },
        60_000,
      );
      const row = (await rows()).find((r) => r.id === taskId);
      expect(row?.platform_task_id).toBe(platformId);
      expect(emu.control.listTasks()).toHaveLength(1);
      emu.control.faults.webhooks = {};
    }, 120_000);

    it("without webhooks, marks it unknown (never resubmitted) and keeps the account's queue moving", async () => {
      emu.control.faults.webhooks = { drop: true };
      const { taskId } = await crashMidSubmit("answer lost, webhooks dropped");
      await waitFor(
        "the orphaned submit to become unknown",
        async () => (await rows()).find((r) => r.id === taskId)?.status === "unknown",
        30_000,
      );
      const orphan = (await client.listTasks(session)).find((t) => t.id === taskId);
      expect(orphan?.error).toMatch(/not resubmitted/);
      expect(emu.control.listTasks()).toHaveLength(2); // this one landed once, and only once
      emu.control.faults.webhooks = {};

      const next = await client.createTask(session, "after the crash");
      const nextPlatformId = next.platform_task_id ?? "";
      await waitFor(
        "the next task to finish on the platform and in the backend",
        async () =>
          platformFinished(emu.control, [nextPlatformId]) &&
          (await rows()).find((r) => r.id === next.id)?.status ===
            emu.control.getTask(nextPlatformId)?.status,
        60_000,
      );
      expect(emu.control.listTasks()).toHaveLength(3);
    }, 120_000);
  },
);
