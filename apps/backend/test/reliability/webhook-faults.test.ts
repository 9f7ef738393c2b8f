import type { WebhookFaults } from "@overture/platform-emulator";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Task as TaskJson } from "../../src/schemas/task.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import {
  backwardMoves,
  deliveriesPending,
  platformFinished,
  printLedger,
  readLedger,
  expectBalanced,
} from "../support/ledger.ts";
import { SPREAD_TIMING } from "../support/live.ts";
import { createTask, getTask, setUpTaskUser, type TaskUser } from "../support/tasks.ts";

const TASKS = 8;

const FAULTS: [string, WebhookFaults][] = [
  ["dropped", { drop: true }],
  ["duplicated", { duplicate: true }],
  ["delayed by 20 s", { delayMs: 20_000 }],
  ["reordered newest first", { reorder: true }],
  [
    "dropped, duplicated, delayed and reordered at once",
    {
      drop: 5,
      duplicate: true,
      delayMs: 3_000,
      reorder: true,
    },
  ],
];

/**
 * The emulator's webhook faults, each on its own batch of tasks, with the reconciler running as
 * in production (webhook first, polling as the safety net). Everything on the manual clock.
 */
describeEachDriver("webhooks dropped, duplicated, delayed and reordered", (driver) => {
  let t: TestBackend;
  let user: TaskUser;
  beforeAll(async () => {
    t = await startTestBackend({ driver, emulator: { timing: SPREAD_TIMING } });
    user = await setUpTaskUser(t, { webhookSecret: true });
    t.emu.control.setQuota(user.namespace, 1_000);
  });
  afterAll(() => t.close());

  async function settled(tasks: TaskJson[], platformIds: string[]): Promise<boolean> {
    if (!platformFinished(t.emu.control, platformIds)) return false;
    if (deliveriesPending(t.emu.control, platformIds) > 0) return false;
    for (const task of tasks) {
      const mine = await getTask(t, user.session, task.id);
      if (mine.status !== t.emu.control.getTask(task.platform_task_id ?? "")?.status) return false;
    }
    return true;
  }

  it.each(FAULTS)(
    "ends every task in its true final state when webhooks are %s, applying no event twice and never moving back",
    async (name, faults) => {
      t.emu.control.faults.webhooks = faults;
      const created: TaskJson[] = [];
      for (let i = 0; i < TASKS; i += 1)
        created.push(await createTask(t, user.session, { prompt: `${name} ${i}` }));
      const platformIds = created.map((task) => task.platform_task_id ?? "");

      let rounds = 0;
      while (!(await settled(created, platformIds))) {
        rounds += 1;
        expect(rounds, "tasks did not settle within 20 emulated minutes").toBeLessThan(240);
        await t.emu.control.clock.advance(5_000);
        await t.backend.deps.services.reconciler.runOnce();
      }
      t.emu.control.faults.webhooks = {};

      // The fault really changed what arrived: some events left after their task had moved on
      // (delay), and with `reorder` each task's final status arrived first.
      const arrivals = t.webhookArrivals.filter((a) => platformIds.includes(a.taskId));
      const stale = arrivals.filter((a) => a.status !== a.platformStatus).length;
      if (faults.delayMs || faults.reorder) expect(stale).toBeGreaterThan(0);
      if (faults.reorder && !faults.drop) {
        for (const id of platformIds) {
          const first = arrivals.find((a) => a.taskId === id);
          expect(first?.status).toBe(t.emu.control.getTask(id)?.status);
        }
      }

      const ledger = await readLedger(t.emu.control, t.database.db, platformIds);
      printLedger(`webhooks ${name} [${driver}]`, ledger, { tasks: TASKS, rounds, stale });
      expectBalanced(ledger);
      if (faults.drop) expect(ledger.dropped).toBeGreaterThan(0);
      if (faults.duplicate) expect(ledger.answers["200"] ?? 0).toBeGreaterThan(ledger.delivered);
      expect(
        await backwardMoves(
          t.database.db,
          created.map((task) => task.id),
        ),
      ).toEqual([]);
    },
    60_000,
  );
});
