import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { createAnnouncer } from "./announcer.ts";

/** A database that records the payload of each NOTIFY; `fail` makes the next ones throw. */
function fakeDb() {
  const sent: string[] = [];
  const state = { fail: false };
  const database: Pick<Database, "query"> = {
    query: (statement) => {
      if (state.fail) return Promise.reject(new Error("connection lost"));
      sent.push(String(statement.params[1]));
      return Promise.resolve([]);
    },
  };
  return { database, sent, state };
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
    const { database, sent } = fakeDb();
    const announcer = createAnnouncer({ database, logger: fakeLogger().logger, delayMs: 1_000 });
    announcer.announce(3n);
    announcer.announce(7n);
    announcer.announce(5n);
    announcer.announce(undefined);
    await announcer.flush();
    expect(sent).toEqual(["7"]);
  });

  it("sends nothing when nothing was appended", async () => {
    const { database, sent } = fakeDb();
    const announcer = createAnnouncer({ database, logger: fakeLogger().logger });
    announcer.announce(undefined);
    await announcer.flush();
    expect(sent).toEqual([]);
  });

  it("logs a failed NOTIFY and still announces what comes after", async () => {
    const { database, sent, state } = fakeDb();
    const { logger, warnings } = fakeLogger();
    const announcer = createAnnouncer({ database, logger, delayMs: 1_000 });
    state.fail = true;
    announcer.announce(4n);
    await announcer.flush();
    expect(warnings).toHaveLength(1);
    state.fail = false;
    announcer.announce(9n);
    await announcer.flush();
    expect(sent).toEqual(["9"]);
  });
});
