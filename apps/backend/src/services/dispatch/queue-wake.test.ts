import { describe, expect, it } from "vitest";
import { holdWakes, WAKE_SLACK_MS, type WakeTimers } from "./queue-wake.ts";
import type { Account } from "../tasks/record.ts";

/** Timers that only record: a test fires a wake by hand, or sees it cleared. */
function fakeTimers() {
  const armed = new Map<number, { wake: () => void; ms: number }>();
  let next = 0;
  const timers: WakeTimers = {
    set: (wake, ms) => {
      armed.set(++next, { wake, ms });
      return next;
    },
    clear: (handle) => {
      armed.delete(handle as number);
    },
  };
  return { timers, armed };
}

const NOW = 1_000_000;
const clock = { now: () => NOW };
const alice: Account = { userId: 1, namespace: "alice" };

function started() {
  const { timers, armed } = fakeTimers();
  const woken: Account[] = [];
  const wakes = holdWakes({ clock, timers, wake: (account) => woken.push(account) });
  wakes.start();
  return { wakes, armed, woken };
}

describe("holdWakes", () => {
  it("wakes the held account once its hold has ended", () => {
    const { wakes, armed, woken } = started();
    wakes.held(alice, new Date(NOW + 120_000));
    const [timer] = armed.values();
    expect(timer?.ms).toBe(120_000 + WAKE_SLACK_MS);
    expect(woken).toEqual([]);
    timer?.wake();
    expect(woken).toEqual([alice]);
  });

  it("keeps one wake per account, at the end of the later hold", () => {
    const { wakes, armed } = started();
    wakes.held(alice, new Date(NOW + 120_000));
    wakes.held(alice, new Date(NOW + 60_000)); // shorter: the rows keep the longer hold too
    wakes.held(alice, new Date(NOW + 300_000));
    expect([...armed.values()].map((t) => t.ms)).toEqual([300_000 + WAKE_SLACK_MS]);
  });

  it("sets no wake while the queue's rounds are not running", () => {
    const { timers, armed } = fakeTimers();
    const wakes = holdWakes({ clock, timers, wake: () => undefined });
    wakes.held(alice, new Date(NOW + 120_000));
    expect(armed.size).toBe(0);
  });

  it("clears the pending wakes when the queue stops, and sets none after", () => {
    const { wakes, armed } = started();
    wakes.held(alice, new Date(NOW + 120_000));
    wakes.stop();
    expect(armed.size).toBe(0);
    wakes.held(alice, new Date(NOW + 240_000));
    expect(armed.size).toBe(0);
  });
});
