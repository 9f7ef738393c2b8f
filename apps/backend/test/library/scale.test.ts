import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { libraryQuery, type ListQuery } from "../../src/services/tasks/list.ts";
import { queryRows } from "../../src/db/rows.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { startTestBackend, type TestBackend } from "../support/harness.ts";
import { listAll } from "../support/library.ts";

/** Tracks of the user under test, and as many of another user's beside them. */
const TRACKS = 5_000;

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/**
 * Paging stays fast with thousands of tracks because every sort reads an index in its order from
 * the cursor: the plan has no Sort node and no scan of the whole table. (Speed itself is for
 * `pnpm bench`; this checks the plan, which does not depend on the machine.)
 */
describeEachDriver("the library with thousands of tracks", (driver) => {
  let t: TestBackend;
  let session: string;
  let userId: number;

  async function plan(query: ListQuery): Promise<PlanNode[]> {
    const [row] = await queryRows<{ "QUERY PLAN": unknown }>(
      t.database.db,
      sql`explain (format json) ${libraryQuery(t.database.db, userId, query)}`,
    );
    const raw = row?.["QUERY PLAN"];
    const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    return nodesOf(parsed[0].Plan);
  }

  beforeAll(async () => {
    t = await startTestBackend({ driver });
    const me = await t.signIn();
    const other = await t.signIn({ login: "ada" });
    session = me.sessionToken;
    userId = me.userId;
    for (const owner of [me.userId, other.userId])
      await t.database.db.execute(sql`
        insert into tasks (user_id, namespace, token_id, status, params, title, favourite, created_at, updated_at)
        select ${owner}, 'demo', 1, case when g % 7 = 0 then 'failure' else 'success' end,
          jsonb_build_object('prompt', 'prompt ' || g, 'lyrics', 'la la ' || g),
          'Track ' || lpad(g::text, 5, '0'), g % 10 = 0,
          timestamptz '2030-01-01' + (g || ' seconds')::interval, timestamptz '2030-01-01'
        from generate_series(1, ${TRACKS}) g`);
    await t.database.db.execute(sql`analyze tasks`);
  });
  afterAll(() => t.close());

  it.each([
    ["newest", { sort: "newest" }, "tasks_user_created_idx"],
    ["oldest", { sort: "oldest" }, "tasks_user_created_idx"],
    ["title", { sort: "title" }, "tasks_user_title_idx"],
    ["favourites", { sort: "newest", favourite: true }, "tasks_user_favourite_idx"],
  ] as const)("reads the %s page from an index, without sorting", async (_, query, index) => {
    const nodes = await plan({ ...query, limit: 20 });
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Seq Scan");
    expect(nodes.map((n) => n["Index Name"])).toContain(index);
  });

  it("reads a deep page from the cursor, not from the start", async () => {
    const first = await t.request(`/api/tasks?sort=title&limit=100`, { session });
    const { next_cursor } = (await first.json()) as { next_cursor: string };
    const nodes = await plan({ sort: "title", limit: 100, cursor: next_cursor });
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
    expect(nodes.map((n) => n["Index Name"])).toContain("tasks_user_title_idx");
  });

  it("walks every track once, in order, in pages of 100", async () => {
    const all = await listAll(t, session, "sort=newest", 100);
    expect(all).toHaveLength(TRACKS);
    expect(new Set(all.map((task) => task.id)).size).toBe(TRACKS);
    expect(all[0]?.title).toBe("Track 05000");
    expect(all.at(-1)?.title).toBe("Track 00001");
    const favourites = await listAll(t, session, "favourite=true&status=success", 100);
    // Multiples of 10 that are not multiples of 70.
    expect(favourites).toHaveLength(500 - 71);
  });
});
