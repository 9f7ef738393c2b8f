import { setImmediate as nextTurn } from "node:timers/promises";
import { expect, it } from "vitest";
import { createLogger } from "../../lib/logger.ts";
import type { Timers } from "../../lib/timers.ts";
import { startHeartbeat } from "./heartbeat.ts";
import { RENEW_MS } from "./leases.ts";

/** A heartbeat on hand-fired timers; `answers` are what its renewals find, in turn. */
function setUp(answers: (boolean | Error)[]) {
  const armed: { fire: () => void; ms: number }[] = [];
  const timers: Timers = {
    set: (fire, ms) => armed.push({ fire, ms }),
    clear: () => undefined,
  };
  const lines: { msg: string }[] = [];
  const logger = createLogger("info", {
    write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }),
  });
  let renewals = 0;
  let lost = 0;
  const heartbeat = startHeartbeat({
    renew: () => {
      const answer = answers[renewals++] ?? true;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    lost: () => {
      lost += 1;
    },
    timers,
    logger,
    taskId: "t1",
  });
  return { armed, heartbeat, lines, lost: () => lost, renewals: () => renewals };
}

/** Fires the latest armed beat, then lets its renewal (already settled) answer. */
async function beat(armed: { fire: () => void }[]): Promise<void> {
  armed.at(-1)?.fire();
  await nextTurn();
}

it("arms a renewal every RENEW_MS, the next only once the last has answered", async () => {
  const { armed, heartbeat, renewals } = setUp([true, true]);
  expect(armed.map((a) => a.ms)).toEqual([RENEW_MS]);
  await beat(armed);
  await beat(armed);
  expect(renewals()).toBe(2);
  expect(armed).toHaveLength(3);
  expect(heartbeat.lost).toBe(false);
});

it("tries a renewal that failed again at the next beat, without calling the lease lost", async () => {
  const { armed, heartbeat, lines, lost } = setUp([new Error("database away"), true]);
  await beat(armed);
  expect(lines.map((l) => l.msg)).toEqual(["renewing an archive lease failed"]);
  expect(armed).toHaveLength(2);
  await beat(armed);
  expect(armed).toHaveLength(3);
  expect(lost()).toBe(0);
  expect(heartbeat.lost).toBe(false);
});

it("calls the lease lost once, when a renewal finds the claim gone, and arms no more", async () => {
  const { armed, heartbeat, lost } = setUp([false]);
  await beat(armed);
  expect(lost()).toBe(1);
  expect(heartbeat.lost).toBe(true);
  expect(armed).toHaveLength(1);
});

it("arms nothing once ended, even when a renewal in flight answers after", async () => {
  const { armed, heartbeat, renewals } = setUp([true]);
  armed[0]?.fire();
  await heartbeat.end();
  expect(renewals()).toBe(1);
  expect(armed).toHaveLength(1);
});
