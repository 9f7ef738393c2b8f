import { sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import type { AppDatabase } from "../../src/db/client.ts";
import { openDatabase } from "../../src/db/open.ts";
import { parseEnv } from "../../src/env/env.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createRetention, PRUNED_TABLES } from "../../src/services/retention/prune.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { describeEachDriver, describePg } from "../support/drivers.ts";
import { testEnv } from "../support/harness.ts";
import { selectRows } from "../support/sql.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.parse("2026-06-01T12:00:00Z");
const clock = { now: () => NOW };
const logger = createLogger("silent");
const config = parseEnv(
  testEnv({
    RETENTION_WEBHOOK_EVENTS_DAYS: "7",
    RETENTION_TASK_EVENTS_DAYS: "14",
    RETENTION_WEBHOOK_REJECTIONS_DAYS: "30",
    RETENTION_EXPIRED_SIGN_IN_HOURS: "2",
  }),
);

const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

/**
 * Rows on both sides of each table's limit: `old` just past it, `kept` just inside it. Sign-in
 * rows are aged by their expiry: expired longer ago than the grace, expired recently, still valid.
 */
async function seed(db: AppDatabase, old: number, kept: number): Promise<void> {
  await db.execute(
    sql`insert into users (id, login, name, avatar_url) values (1, 'ada', 'Ada', '')`,
  );
  const [task] = await selectRows<{ id: string }>(
    db,
    sql`insert into tasks (user_id, namespace, token_id, status, params)
        values (1, 'ada', 1, 'success', '{}') returning id`,
  );
  const taskId = task?.id ?? "";
  const rows = (count: number, ageMs: number, key: string) =>
    Array.from({ length: count }, (_, i) => ({ i: `${key}-${i}`, at: at(ageMs) }));
  for (const r of [...rows(old, 7 * DAY + HOUR, "old"), ...rows(kept, 7 * DAY - HOUR, "new")])
    await db.execute(
      sql`insert into webhook_events (event_id, task_id, status, signed_at, received_at)
          values (${r.i}, ${taskId}, 'running', 0, ${r.at})`,
    );
  for (const r of [...rows(old, 14 * DAY + HOUR, "old"), ...rows(kept, 14 * DAY - HOUR, "new")])
    await db.execute(
      sql`insert into task_events (user_id, task_id, status, source, payload, created_at)
          values (1, ${taskId}, 'running', 'poll', '{}', ${r.at})`,
    );
  for (const r of [...rows(old, 30 * DAY + HOUR, "old"), ...rows(kept, 30 * DAY - HOUR, "new")])
    await db.execute(
      sql`insert into webhook_rejections (user_id, reason, message, http_status, received_at)
          values (1, 'malformed_body', 'x', 400, ${r.at})`,
    );
  const expiries = [
    ...rows(old, 2 * HOUR + 60_000, "old"),
    ...rows(kept, 2 * HOUR - 60_000, "recent"),
    ...rows(kept, -10 * 60_000, "valid"),
  ];
  for (const r of expiries) {
    await db.execute(
      sql`insert into login_attempts (state_hash, redirect_uri, code_challenge, expires_at)
          values (${r.i}, 'https://x.chromiumapp.org/', 'c', ${r.at})`,
    );
    await db.execute(
      sql`insert into handoff_codes (code_hash, user_id, code_challenge, expires_at)
          values (${r.i}, 1, 'c', ${r.at})`,
    );
  }
}

async function counts(db: AppDatabase): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { table } of PRUNED_TABLES) {
    const [row] = await selectRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from ${sql.identifier(table)}`,
    );
    out[table] = row?.n ?? -1;
  }
  return out;
}

describeEachDriver("retention", (driver) => {
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.drop();
    handle = undefined;
  });

  it("deletes rows past each table's age, in batches, and keeps the rest", async () => {
    handle = await createTestDatabase(driver);
    const { db } = handle.database;
    await seed(db, 5, 3);
    // A batch of 2: five old rows take three batches, the last one short.
    const retention = createRetention({ db, clock, config, logger }, { batchSize: 2 });
    expect(await retention.runNow()).toEqual({
      webhook_events: 5,
      task_events: 5,
      webhook_rejections: 5,
      login_attempts: 5,
      handoff_codes: 5,
    });
    // Sign-in rows kept: the recently expired and the valid ones.
    expect(await counts(db)).toEqual({
      webhook_events: 3,
      task_events: 3,
      webhook_rejections: 3,
      login_attempts: 6,
      handoff_codes: 6,
    });
    const left = await selectRows<{ state_hash: string }>(
      db,
      sql`select state_hash from login_attempts where state_hash like 'old-%'`,
    );
    expect(left).toEqual([]);
    // A second round finds nothing more.
    expect(Object.values(await retention.runNow())).toEqual([0, 0, 0, 0, 0]);
  });

  it("keeps everything when every row is younger than its limit", async () => {
    handle = await createTestDatabase(driver);
    const { db } = handle.database;
    await seed(db, 0, 4);
    const retention = createRetention({ db, clock, config, logger });
    expect(Object.values(await retention.runNow())).toEqual([0, 0, 0, 0, 0]);
    expect(await counts(db)).toEqual({
      webhook_events: 4,
      task_events: 4,
      webhook_rejections: 4,
      login_attempts: 8,
      handoff_codes: 8,
    });
  });
});

describePg("retention on two instances at once", () => {
  let handle: TestDatabase | undefined;
  afterEach(async () => {
    await handle?.drop();
    handle = undefined;
  });

  it("deletes each old row once between them (SKIP LOCKED), none twice, none left", async () => {
    handle = await createTestDatabase("pg");
    const { db } = handle.database;
    const old = 400;
    await seed(db, old, 2);
    const other = await openDatabase({ driver: "pg", url: handle.url ?? "" });
    try {
      const a = createRetention({ db, clock, config, logger }, { batchSize: 10 });
      const b = createRetention({ db: other.db, clock, config, logger }, { batchSize: 10 });
      const [first, second] = await Promise.all([a.runNow(), b.runNow()]);
      for (const { table } of PRUNED_TABLES) expect(first[table] + second[table], table).toBe(old);
      expect(await counts(db)).toEqual({
        webhook_events: 2,
        task_events: 2,
        webhook_rejections: 2,
        login_attempts: 4,
        handoff_codes: 4,
      });
    } finally {
      await other.close();
    }
  });
});

it("has retention ages of at least a day, and names a bad one", () => {
  expect(config.retention.webhookEventsMs).toBe(7 * DAY);
  expect(parseEnv(testEnv()).retention).toEqual({
    webhookEventsMs: 30 * DAY,
    taskEventsMs: 30 * DAY,
    webhookRejectionsMs: 30 * DAY,
    expiredSignInMs: 24 * HOUR,
    intervalMs: 60 * 60_000,
  });
  expect(() => parseEnv(testEnv({ RETENTION_TASK_EVENTS_DAYS: "0" }))).toThrow(
    /RETENTION_TASK_EVENTS_DAYS: must be a whole number of days, at least 1/,
  );
});
