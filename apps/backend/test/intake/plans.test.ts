import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inlined, type Statement } from "../../src/db/script.ts";
import { queryRows } from "../../src/db/rows.ts";
import { storeWebhookEventsStatement } from "../../src/services/tasks/apply.ts";
import { saveTasksStatement, taskRowOf } from "../../src/services/tasks/store.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";

const TASKS = 5_000;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

/**
 * The intake's batch statements join the batch (a jsonb_to_recordset, which the planner always
 * counts as 100 rows) to its tasks. Without the ids beside it the planner chose to scan the whole
 * tasks table for every batch: 1.9 ms at 10,000 tasks, growing with a deployment's history. With
 * thousands of tasks, each statement reads its few tasks by primary key. (Speed itself is for
 * `pnpm bench`; the plan does not depend on the machine.)
 */
describeEachDriver("the intake's batch statements with thousands of tasks", (driver) => {
  let t: TestBackend;
  let ids: string[];

  async function tasksScanned(statement: Statement | undefined): Promise<string[]> {
    if (!statement) throw new Error("no statement");
    const [row] = await queryRows<{ "QUERY PLAN": unknown }>(
      t.database.db,
      sql.raw(`explain (format json) ${inlined(statement)}`),
    );
    const raw = row?.["QUERY PLAN"];
    const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    return nodesOf(parsed[0].Plan)
      .filter((node) => node["Relation Name"] === "tasks")
      .map((node) => node["Node Type"]);
  }

  beforeAll(async () => {
    t = await startTestBackend({ driver });
    const { userId } = await t.signIn();
    await t.database.db.execute(sql`
      insert into tasks (user_id, namespace, token_id, status, params, platform_task_id)
      select ${userId}, 'demo', 1, 'waiting', '{}'::jsonb, 'ptask-' || g
      from generate_series(1, ${TASKS}) g`);
    await t.database.db.execute(sql`analyze tasks`);
    const rows = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from tasks order by platform_task_id limit 3`,
    );
    ids = rows.map((row) => row.id).sort();
  });
  afterAll(() => t.close());

  it("updates the batch's tasks read by primary key, not by a scan of the table", async () => {
    const raw = await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select * from tasks where id = any(${`{${ids.join(",")}}`}::uuid[])`,
    );
    const before = new Map(raw.map((row) => [String(row.id), taskRowOf(row)]));
    const after = [...before.values()].map((row) => ({ ...row, status: "in_progress" as const }));
    const scans = await tasksScanned(saveTasksStatement(after, before));
    expect(scans.length).toBeGreaterThan(0);
    expect(scans).not.toContain("Seq Scan");
  });

  it("checks the stored events' tasks by primary key, not by a scan of the table", async () => {
    const reports = ids.map((taskId, i) => ({
      taskId,
      source: "webhook" as const,
      status: "in_progress",
      webhookEvent: { eventId: `evt_plan_${i}`, signedAt: Date.now() },
    }));
    const scans = await tasksScanned(storeWebhookEventsStatement(reports, Date.now()));
    expect(scans.length).toBeGreaterThan(0);
    expect(scans).not.toContain("Seq Scan");
  });
});
