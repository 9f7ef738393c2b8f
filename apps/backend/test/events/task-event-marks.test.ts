import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import type { AppDatabase } from "../../src/db/client.ts";
import { parseEnv } from "../../src/env/env.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createRetention } from "../../src/services/retention/prune.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { describeEachDriver } from "../support/drivers.ts";
import { testEnv } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const DAY = 86_400_000;
const config = parseEnv(testEnv({ RETENTION_TASK_EVENTS_DAYS: "14" }));

/** The marks kept by the trigger of migration 0006. */
async function marks(db: AppDatabase) {
  return selectRows<{ pruned: string; deleted: string }>(
    db,
    sql`select pruned_through::text as pruned, deleted_through::text as deleted from task_event_marks`,
  );
}

/** A task of user 1 (created with the user on first use) and its events, aged as given; their ids. */
async function seedEvents(db: AppDatabase, agesInDays: number[]): Promise<bigint[]> {
  await db.execute(
    sql`insert into users (id, login, name, avatar_url) values (1, 'ada', 'Ada', '')
        on conflict do nothing`,
  );
  const [task] = await selectRows<{ id: string }>(
    db,
    sql`insert into tasks (user_id, namespace, token_id, status, params)
        values (1, 'ada', 1, 'success', '{}') returning id`,
  );
  const ids: bigint[] = [];
  for (const days of agesInDays) {
    const [row] = await selectRows<{ id: string }>(
      db,
      sql`insert into task_events (user_id, task_id, status, source, payload, created_at)
          values (1, ${task?.id}, 'running', 'poll', '{}', ${new Date(NOW - days * DAY).toISOString()})
          returning id::text`,
    );
    ids.push(BigInt(row?.id ?? -1));
  }
  return ids;
}

describeEachDriver("task event marks", (driver) => {
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.drop();
    handle = undefined;
  });
  const open = async () => (handle = await createTestDatabase(driver)).database.db;

  it("start at 0 and 0 on a new database", async () => {
    expect(await marks(await open())).toEqual([{ pruned: "0", deleted: "0" }]);
  });

  it("rise to the highest id retention deleted", async () => {
    const db = await open();
    const ids = await seedEvents(db, [20, 20, 15, 1, 0]);
    const retention = createRetention(
      { db, clock: { now: () => NOW }, config, logger: createLogger("silent") },
      { batchSize: 2 },
    );
    expect((await retention.runNow()).task_events).toBe(3);
    const third = String(ids[2]);
    expect(await marks(db)).toEqual([{ pruned: third, deleted: third }]);
  });

  it("move only deleted_through when events go with their task", async () => {
    const db = await open();
    await seedEvents(db, [1]);
    const gone = await seedEvents(db, [0, 0]);
    await db.execute(sql`delete from tasks where id = (select task_id from task_events
      where id = ${String(gone[1])}::bigint)`);
    expect(await marks(db)).toEqual([{ pruned: "0", deleted: String(gone[1]) }]);
  });

  it("never fall: deleting older events afterwards leaves them", async () => {
    const db = await open();
    const ids = await seedEvents(db, [3, 2, 1, 0]);
    await db.execute(sql`delete from task_events where id = ${String(ids[2])}::bigint`);
    await db.execute(sql`delete from task_events where id = ${String(ids[0])}::bigint`);
    expect(await marks(db)).toEqual([{ pruned: String(ids[2]), deleted: String(ids[2]) }]);
  });

  it("count every id handed out as pruned after a TRUNCATE", async () => {
    const db = await open();
    const ids = await seedEvents(db, [1, 0]);
    await db.execute(sql`truncate task_events`);
    expect(await marks(db)).toEqual([{ pruned: String(ids[1]), deleted: String(ids[1]) }]);
  });

  it("start an upgraded database with the ids below its oldest event pruned and every id handed out held", async () => {
    const db = await open();
    const ids = await seedEvents(db, [3, 2, 1, 0]);
    // A database that pruned before the marks existed: rows gone, no marks.
    await db.execute(sql`delete from task_events where id <= ${String(ids[1])}::bigint`);
    await db.execute(sql`delete from task_event_marks`);
    const migration = await readFile(
      new URL("../../drizzle/0006_task_event_marks.sql", import.meta.url),
      "utf8",
    );
    const setUp = migration
      .split("--> statement-breakpoint")
      .filter((s) => /^\s*(--.*\n)*\s*(SELECT pg_advisory_xact_lock|INSERT INTO)/.test(s));
    expect(setUp).toHaveLength(2);
    await db.transaction(async (tx) => {
      for (const statement of setUp) await tx.execute(sql.raw(statement));
    });
    expect(await marks(db)).toEqual([{ pruned: String(ids[1]), deleted: String(ids[3]) }]);
  });
});
