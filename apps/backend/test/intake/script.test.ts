import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ScriptSession } from "../../src/db/client.ts";
import { applyInScript } from "../../src/services/tasks/apply-postgres.ts";
import type { ApplyContext } from "../../src/services/tasks/apply.ts";
import type { PlatformReport } from "../../src/services/tasks/merge.ts";
import { describePg } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";

/**
 * The intake's batch as two multi-statement messages on Postgres (services/tasks/apply-postgres.ts):
 * each statement is prepared on its connection the first time, then only EXECUTEd.
 */
describePg("the intake's batch scripts on Postgres", () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await startTestBackend({ driver: "pg" });
    await t.database.db.execute(
      sql`insert into users (id, login, name, avatar_url) values (7001, 'script-user', 'S', '')`,
    );
  });
  afterAll(() => t.close());

  const context = (): ApplyContext => ({
    now: Date.now(),
    schedule: { expectedDurationMs: 600_000, random: () => 0.5 },
    archive: false,
    fileTtlMs: 86_400_000,
    publicUrl: "http://127.0.0.1:8787",
    announceAfterCommit: true,
  });

  async function newTask(): Promise<string> {
    const [row] = await selectRows<{ id: string }>(
      t.database.db,
      sql`insert into tasks (user_id, namespace, token_id, status, params, platform_task_id)
          values (7001, 'script-user', 1, 'waiting', '{}'::jsonb, ${`ptask-${randomUUID()}`})
          returning id`,
    );
    if (!row) throw new Error("no task");
    return row.id;
  }

  const report = (taskId: string, status: string, signedAt = Date.now()): PlatformReport => ({
    taskId,
    source: "webhook",
    status,
    output: { progress: status === "success" ? 1 : 0.5 },
    webhookEvent: { eventId: `evt-${randomUUID()}`, signedAt },
  });

  /**
   * One real connection for every batch, recording each message and each release; `fresh`: one
   * on which no statement was prepared yet (the others taken meanwhile go back to the pool).
   */
  async function recordingSession(fresh = false) {
    const open = () =>
      t.database.driver === "pg"
        ? t.database.scriptSession()
        : Promise.reject(new Error("no script sessions here"));
    let inner = await open();
    const held: ScriptSession[] = [];
    for (let i = 0; fresh && inner.prepared.size > 0 && i < 5; i += 1) {
      held.push(inner);
      inner = await open();
    }
    for (const other of held) other.release();
    if (fresh && inner.prepared.size > 0) throw new Error("no fresh connection in the pool");
    const messages: string[] = [];
    const releases: (boolean | undefined)[] = [];
    const session: ScriptSession = {
      prepared: inner.prepared,
      run: (text) => {
        messages.push(text);
        return inner.run(text);
      },
      release: (broken) => {
        releases.push(broken);
      },
    };
    return {
      session,
      messages,
      releases,
      close: (broken?: boolean) => {
        inner.release(broken);
      },
    };
  }

  it("prepares each statement on the first batch, then only executes it", async () => {
    const [taskId, otherId] = [await newTask(), await newTask()];
    const { session, messages, releases, close } = await recordingSession(true);
    try {
      const first = await applyInScript(
        () => Promise.resolve(session),
        [report(taskId, "in_progress")],
        context(),
      );
      expect(first.outcomes).toEqual(["accepted"]);
      expect(messages).toHaveLength(2);
      for (const message of messages) expect(message).toMatch(/^prepare overture_/m);

      messages.length = 0;
      // The same change of another task: the very statements, now only executed.
      const second = await applyInScript(
        () => Promise.resolve(session),
        [report(otherId, "in_progress")],
        context(),
      );
      expect(second.outcomes).toEqual(["accepted"]);
      expect(messages).toHaveLength(2);
      for (const message of messages) {
        expect(message).not.toMatch(/prepare/i);
        expect(message).toMatch(/^execute overture_(lock_tasks|save_tasks)_/m);
      }
      expect(releases).toEqual([undefined, undefined]);

      const stored = await selectRows<{ status: string; events: number }>(
        t.database.db,
        sql`select status, (select count(*)::int from task_events e where e.task_id = t.id) as events
            from tasks t where id in (${taskId}::uuid, ${otherId}::uuid)`,
      );
      expect(stored).toEqual([
        { status: "in_progress", events: 1 },
        { status: "in_progress", events: 1 },
      ]);
    } finally {
      close();
    }
  });

  it("drops the connection when a message that held a PREPARE failed", async () => {
    const taskId = await newTask();
    const { session, releases, close } = await recordingSession(true);
    try {
      // signed_at is a bigint: Postgres refuses 1.5 inside the first message, after its PREPAREs.
      await expect(
        applyInScript(
          () => Promise.resolve(session),
          [report(taskId, "in_progress", 1.5)],
          context(),
        ),
      ).rejects.toThrow(/bigint/);
      expect(releases).toEqual([true]);
    } finally {
      close(true);
    }
  });
});
