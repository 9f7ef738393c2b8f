import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database, PgliteDatabase } from "../../src/db/client.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { selectRows, statementOf } from "../support/sql.ts";
import { describeEachDriver, describePg } from "../support/drivers.ts";
import { waitFor } from "../support/live.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

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

  it("deleting tasks deletes their task events and webhook events (migration 0005's trigger)", async () => {
    const db = handle.database.db;
    const count = async (table: string, taskIds: string[]) =>
      (
        await selectRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from ${sql.identifier(table)} where task_id = any(${`{${taskIds.join(",")}}`}::uuid[])`,
        )
      )[0]?.n;
    await db.execute(sql`insert into users (id, login, name, avatar_url) values
      (9001, 'events-a', 'A', ''), (9002, 'events-b', 'B', '')`);
    const tasks = await selectRows<{ id: string; user_id: string }>(
      db,
      sql`insert into tasks (user_id, namespace, token_id, status, params)
          select u, 'ns', 1, 'waiting', '{}'::jsonb from unnest(array[9001, 9001, 9001, 9002]) as u
          returning id, user_id`,
    );
    await db.execute(sql`insert into task_events (user_id, task_id, status, source, payload)
      select user_id, id, 'waiting', 'api', '{}'::jsonb from tasks where user_id in (9001, 9002)`);
    await db.execute(sql`insert into webhook_events (event_id, task_id, status, signed_at)
      select 'evt-' || id, id, 'in_progress', 0 from tasks where user_id in (9001, 9002)`);
    const [first, second, third, other] = tasks.map((t) => t.id) as [
      string,
      string,
      string,
      string,
    ];

    // A purge-like delete of two tasks: only theirs go.
    await db.execute(sql`delete from tasks where id in (${first}::uuid, ${second}::uuid)`);
    expect(await count("task_events", [first, second])).toBe(0);
    expect(await count("webhook_events", [first, second])).toBe(0);
    expect(await count("task_events", [third, other])).toBe(2);

    // A user's deletion cascades to their tasks, and from there to the events.
    await db.execute(sql`delete from users where id = 9001`);
    expect(await count("task_events", [third])).toBe(0);
    expect(await count("webhook_events", [third])).toBe(0);
    expect(await count("task_events", [other])).toBe(1);
    expect(await count("webhook_events", [other])).toBe(1);
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

describe("PGlite script transactions", () => {
  let handle: TestDatabase;
  let script: PgliteDatabase["scriptTransaction"];
  const count = async () =>
    (
      await selectRows<{ n: number }>(
        handle.database.db,
        sql`select count(*)::int as n from script_probe`,
      )
    )[0]?.n;
  const insert = (id: number, note: string | null = null) =>
    statementOf(
      sql`insert into script_probe (id, note) values (${id}, ${note}) returning id, note`,
    );
  beforeAll(async () => {
    handle = await createTestDatabase("pglite");
    const { database } = handle;
    if (database.driver !== "pglite") throw new Error("PGlite offers no script transactions");
    script = database.scriptTransaction.bind(database);
    await handle.database.db.execute(
      sql`create table script_probe (id int primary key, note text)`,
    );
  });
  afterAll(() => handle.drop());
  beforeEach(async () => {
    await handle.database.db.execute(sql`truncate script_probe`);
  });

  it("answers the rows of each statement, timestamps as text as drizzle reads them", async () => {
    const results = await script((run) =>
      run([
        statementOf(
          sql`select ${"2026-01-02T03:04:05Z"}::timestamptz as at, ${JSON.stringify({ a: 1 })}::jsonb as j, ${7}::int as n`,
        ),
        insert(1),
        insert(2),
      ]),
    );
    expect(results).toEqual([
      [{ at: "2026-01-02 03:04:05+00", j: { a: 1 }, n: 7 }],
      [{ id: 1, note: null }],
      [{ id: 2, note: null }],
    ]);
    expect(await count()).toBe(2);
  });

  it("passes values with quotes, backslashes and newlines through unchanged", async () => {
    const note = String.raw`it's a \ "test"` + "\n$1 ''";
    const [rows] = await script((run) => run([insert(1, note)]));
    expect(rows).toEqual([{ id: 1, note }]);
  });

  it("prepares each statement text once per session and runs it with new values", async () => {
    const prepared = async () =>
      (
        await selectRows<{ n: number }>(
          handle.database.db,
          sql`select count(*)::int as n from pg_prepared_statements`,
        )
      )[0]?.n ?? -1;
    const rename = (id: number, note: string) =>
      statementOf(sql`update script_probe set note = ${note} where id = ${id} returning note`);
    await script((run) => run([insert(1), insert(2)]));
    const before = await prepared();
    const first = await script((run) => run([rename(1, "a")]));
    const second = await script((run) => run([rename(2, "b")]));
    expect([first, second]).toEqual([[[{ note: "a" }]], [[{ note: "b" }]]]);
    expect(await prepared()).toBe(before + 1);
  });

  it("rolls every statement back when one of them fails", async () => {
    await expect(script((run) => run([insert(1), insert(1)]))).rejects.toThrow(/duplicate key/);
    expect(await count()).toBe(0);
  });

  it("rolls the statements back when the work between them throws", async () => {
    await expect(
      script(async (run) => {
        await run([insert(1)]);
        throw new Error("merge failed");
      }),
    ).rejects.toThrow("merge failed");
    expect(await count()).toBe(0);
  });

  it("fails a statement that does not parse, and runs the next script", async () => {
    await expect(
      script((run) => run([statementOf(sql`select from from script_probe`), insert(1)])),
    ).rejects.toThrow(/syntax error/);
    await script((run) => run([insert(2)]));
    expect(await count()).toBe(1);
  });

  it("holds other queries back until it commits", async () => {
    let between!: () => void;
    const paused = new Promise<void>((resolve) => (between = resolve));
    const transaction = script(async (run) => {
      await run([insert(1)]);
      await paused;
      await run([insert(2)]);
    });
    const seen = count();
    await new Promise((resolve) => setTimeout(resolve, 20));
    between();
    await transaction;
    // Run in the middle, the count would have seen one row, uncommitted.
    expect(await seen).toBe(2);
  });
});
