import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/client.ts";
import { createTestDatabase, type TestDatabase } from "./support/databases.ts";
import { selectRows } from "./support/sql.ts";
import { describeEachDriver, describePg } from "./support/drivers.ts";
import { waitFor } from "./support/live.ts";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.ts";

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

describePg("the node-postgres pool when a connection is cut mid-query [pg, TCP proxy]", () => {
  let handle: TestDatabase;
  let proxy: TcpProxy;
  let database: Database;
  beforeAll(async () => {
    handle = await createTestDatabase("pg");
    const target = new URL(handle.url ?? "");
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    database = await openDatabase({ driver: "pg", url: proxy.through(handle.url ?? "") });
  });
  afterAll(async () => {
    await database.close();
    await proxy.close();
    await handle.drop();
  });

  // node-postgres emits "error" on a checked-out client whose socket dies; with no listener the
  // process would end (vitest reports it as an unhandled error, failing the run).
  it("fails the running transaction, keeps the process alive, and serves the next query on a new connection", async () => {
    // A transaction holds its client checked out (a plain pool.query listens for errors itself).
    const running = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_sleep(5)`);
    });
    await waitFor("a connection through the proxy", () => proxy.connections > 0, 5_000);
    proxy.cut();
    await expect(running).rejects.toThrow();
    const rows = await selectRows<{ one: number }>(database.db, sql`select 1 as one`);
    expect(rows[0]?.one).toBe(1);
  });
});
