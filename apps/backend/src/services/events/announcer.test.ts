import { PgDialect } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AppDatabase } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { createAnnouncer } from "./announcer.ts";

const dialect = new PgDialect();

/** A database that records the payload of each NOTIFY; `fail` makes the next ones throw. */
function fakeDb() {
  const sent: string[] = [];
  const state = { fail: false };
  const db = {
    execute: (query: SQL) => {
      if (state.fail) return Promise.reject(new Error("connection lost"));
      sent.push(String(dialect.sqlToQuery(query).params[1]));
      return Promise.resolve({ rows: [] });
    },
  } as unknown as AppDatabase;
  return { db, sent, state };
}

function fakeLogger() {
  const warnings: string[] = [];
  return {
    logger: { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as Logger,
    warnings,
  };
}

describe("task event announcer", () => {
  it("sends one NOTIFY with the highest id for announcements made close together", async () => {
    const { db, sent } = fakeDb();
    const announcer = createAnnouncer({ db, logger: fakeLogger().logger, delayMs: 1_000 });
    announcer.announce(3);
    announcer.announce(7);
    announcer.announce(5);
    announcer.announce(undefined);
    await announcer.flush();
    expect(sent).toEqual(["7"]);
  });

  it("sends nothing when nothing was appended", async () => {
    const { db, sent } = fakeDb();
    const announcer = createAnnouncer({ db, logger: fakeLogger().logger });
    announcer.announce(undefined);
    await announcer.flush();
    expect(sent).toEqual([]);
  });

  it("logs a failed NOTIFY and still announces what comes after", async () => {
    const { db, sent, state } = fakeDb();
    const { logger, warnings } = fakeLogger();
    const announcer = createAnnouncer({ db, logger, delayMs: 1_000 });
    state.fail = true;
    announcer.announce(4);
    await announcer.flush();
    expect(warnings).toHaveLength(1);
    state.fail = false;
    announcer.announce(9);
    await announcer.flush();
    expect(sent).toEqual(["9"]);
  });
});
