import { describe, expect, it } from "vitest";
import { errorBackoffDelay, firstPollDelay, nextPollDelay, type PollSchedule } from "./schedule.ts";

const mid: PollSchedule = { expectedDurationMs: 600_000, random: () => 0.5 };
const low: PollSchedule = { ...mid, random: () => 0 };
const high: PollSchedule = { ...mid, random: () => 0.999_999 };
const NOW = 1_000_000_000;

describe("poll schedule", () => {
  it("polls a task without a webhook after 5 s, growing by 1.25 per poll up to 10 s", () => {
    const delays = [0, 1, 2, 3, 4, 10].map((pollCount) =>
      nextPollDelay({ webhookExpected: false, startedAt: NOW, pollCount }, NOW, mid),
    );
    expect(delays).toEqual([5_000, 6_250, 7_813, 9_766, 10_000, 10_000]);
  });

  it("jitters by ±20 %", () => {
    const subject = { webhookExpected: false, startedAt: NOW, pollCount: 2 };
    expect(nextPollDelay(subject, NOW, low)).toBe(6_250);
    expect(nextPollDelay(subject, NOW, high)).toBe(9_375);
  });

  it("keeps the jittered delay within the spec's 5–10 s, at the first poll and at the cap", () => {
    const first = { webhookExpected: false, startedAt: NOW, pollCount: 0 };
    const capped = { ...first, pollCount: 10 };
    expect(nextPollDelay(first, NOW, low)).toBe(5_000);
    expect(nextPollDelay(first, NOW, high)).toBe(6_000);
    expect(firstPollDelay(false, low)).toBe(5_000);
    expect(nextPollDelay(capped, NOW, low)).toBe(8_000);
    expect(nextPollDelay(capped, NOW, high)).toBe(10_000);
  });

  it("checks a task with a webhook only every 60–120 s", () => {
    const subject = { webhookExpected: true, startedAt: NOW, pollCount: 0 };
    expect(nextPollDelay(subject, NOW, low)).toBe(60_000);
    expect(nextPollDelay(subject, NOW, high)).toBe(120_000);
    expect(firstPollDelay(true, mid)).toBe(60_000);
  });

  it("checks a webhook task right when it outgrows the expected duration, then like one without a webhook", () => {
    const started = NOW - 590_000;
    expect(
      nextPollDelay({ webhookExpected: true, startedAt: started, pollCount: 0 }, NOW, high),
    ).toBe(10_000);
    const overdue = NOW - 700_000;
    expect(
      nextPollDelay({ webhookExpected: true, startedAt: overdue, pollCount: 0 }, NOW, mid),
    ).toBe(5_000);
  });

  it("backs off exponentially after errors, capped at 60 s", () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => errorBackoffDelay(n, undefined, () => 0.5))).toEqual([
      5_000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
  });

  it("waits at least as long as the platform's Retry-After", () => {
    expect(errorBackoffDelay(1, 30_000, () => 0.5)).toBe(30_000);
  });
});
