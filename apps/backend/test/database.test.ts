import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./support/databases.ts";
import { selectRows } from "./support/sql.ts";
import { describeEachDriver } from "./support/drivers.ts";

describeEachDriver("database", (driver) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(driver);
  });
  afterAll(() => handle.drop());

  it("applies the committed migrations and answers a ping", async () => {
    await handle.database.ping();
    const rows = await selectRows<{ count: number }>(
      handle.database.db,
      sql`select count(*)::int as count from information_schema.tables where table_name in ('tasks', 'webhook_events', 'task_events', 'grants')`,
    );
    expect(rows[0]?.count).toBe(4);
  });

  it("running the migrations again changes nothing", async () => {
    await expect(handle.database.migrate()).resolves.toBeUndefined();
  });

  it("delivers NOTIFY payloads to a listener", async () => {
    const received: string[] = [];
    const unlisten = await handle.database.listen("overture_test", (payload) =>
      received.push(payload),
    );
    await handle.database.db.execute(sql`select pg_notify('overture_test', 'hello')`);
    for (let i = 0; i < 50 && received.length === 0; i += 1)
      await new Promise((r) => setTimeout(r, 20));
    await unlisten();
    expect(received).toEqual(["hello"]);
  });
});
