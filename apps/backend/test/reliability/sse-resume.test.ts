import type { RunningEmulator } from "@overture/platform-emulator/server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDriver } from "../support/drivers.ts";
import {
  freePort,
  liveClient,
  liveEnv,
  SPREAD_TIMING,
  liveDatabase,
  startLiveBackend,
  startLiveEmulator,
  waitFor,
  type LiveBackend,
} from "../support/live.ts";
import { selectRows } from "../support/sql.ts";
import { collectTaskIds } from "../support/sse.ts";

/**
 * A client of `/api/events` over a real socket loses its connection in the middle of a stream of
 * task changes (webhooks keep arriving meanwhile), then reconnects with `Last-Event-ID`. The
 * emulator runs on its manual clock, so "meanwhile" costs no wall time.
 */
describeEachDriver("an SSE client disconnected mid-stream [real sockets]", (driver) => {
  let emu: RunningEmulator;
  let live: LiveBackend;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const port = await freePort();
    emu = await startLiveEmulator(`http://127.0.0.1:${port}`, {
      clock: "manual",
      timing: SPREAD_TIMING,
    });
    const { database, drop } = await liveDatabase(driver);
    cleanup = drop;
    live = await startLiveBackend(liveEnv(port, emu.url, database, { LOG_LEVEL: "warn" }));
  });
  afterAll(async () => {
    await live.close();
    await emu.close();
    await cleanup();
  });

  it("resumes with Last-Event-ID and receives every event it missed, exactly once and in order", async () => {
    const client = liveClient(live.url);
    const session = await client.signIn();
    await client.prepareTasks(session, emu);
    const { user } = (await (await client.request("/api/me", { session })).json()) as {
      user: { id: number };
    };
    const allIds = async () =>
      (
        await selectRows<{ id: string }>(
          live.backend.deps.db,
          sql`select id::text from task_events where user_id = ${user.id} order by task_events.id`,
        )
      ).map((r) => Number(r.id));
    const stream = (lastEventId?: number) =>
      client.request("/api/events", {
        session,
        headers: lastEventId === undefined ? {} : { "Last-Event-ID": String(lastEventId) },
      });

    const first = collectTaskIds(await stream());
    for (let i = 0; i < 10; i += 1) await client.createTask(session, `sse ${i}`);
    await emu.control.clock.advance(3_000);
    await waitFor("a first part of the stream", () => first.ids.length >= 20, 10_000, 20);
    // Gone mid-stream: the socket closes; frames still in flight are never read.
    await first.close();
    const lastSeen = first.last ?? 0;

    // Missed while disconnected: every task runs to its end.
    await emu.control.clock.advance(40_000);
    const missed = (await allIds()).filter((id) => id > lastSeen);
    expect(missed.length).toBeGreaterThan(10);

    const second = collectTaskIds(await stream(lastSeen));
    await waitFor(
      "the replay of every missed event",
      async () => second.last === (await allIds()).at(-1),
      10_000,
      20,
    );
    // Live after the replay: a new task's changes arrive on the resumed stream.
    await client.createTask(session, "after the resume");
    await emu.control.clock.advance(40_000);
    await waitFor(
      "the live events after the replay",
      async () => second.last === (await allIds()).at(-1),
      10_000,
      20,
    );
    await second.close();

    const received = [...first.ids, ...second.ids];
    console.log(
      `[sse] ${driver}: ${first.ids.length} before the disconnect, ${missed.length} missed, ${second.ids.length} after resuming`,
    );
    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual(await allIds());
  }, 60_000);
});
