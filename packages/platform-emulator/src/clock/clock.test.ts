import { afterEach, describe, expect, it, vi } from "vitest";
import { createClock } from "./clock.ts";

describe("emulator clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("manual mode: time moves only by advance, exactly by the amount given", async () => {
    const clock = createClock({ mode: "manual", start: 1_767_225_600_000 });
    expect(clock.now()).toBe(1_767_225_600_000);
    await clock.advance(1_500);
    expect(clock.now()).toBe(1_767_225_601_500);
  });

  it("fires due timers in due order, equal due times in scheduling order, each at its due time", async () => {
    const clock = createClock({ mode: "manual", start: 0 });
    const fired: string[] = [];
    const at = (name: string) => () => fired.push(`${name}@${clock.now()}`);
    clock.setTimer(300, at("c"));
    clock.setTimer(100, at("a"));
    clock.setTimer(100, at("b"));
    await clock.advance(1_000);
    expect(fired).toEqual(["a@100", "b@100", "c@300"]);
  });

  it("fires a timer scheduled by another timer when it falls inside the window, not beyond", async () => {
    const clock = createClock({ mode: "manual", start: 0 });
    const fired: number[] = [];
    clock.setTimer(100, () => {
      fired.push(clock.now());
      clock.setTimer(200, () => fired.push(clock.now()));
      clock.setTimer(2_000, () => fired.push(clock.now()));
    });
    await clock.advance(1_000);
    expect(fired).toEqual([100, 300]);
    expect(clock.pendingTimers()).toBe(1);
  });

  it("awaits the `between` hook before each look for the next due timer", async () => {
    const clock = createClock({ mode: "manual", start: 0 });
    const fired: number[] = [];
    let pending: Promise<void> | undefined;
    clock.setTimer(10, () => {
      // Work that schedules its follow-up only after an await, like a webhook attempt.
      pending = Promise.resolve().then(() => {
        clock.setTimer(50, () => fired.push(clock.now()));
      });
    });
    await clock.advance(100, () => pending ?? Promise.resolve());
    expect(fired).toEqual([60]);
  });

  it("a cleared timer never fires", async () => {
    const clock = createClock({ mode: "manual", start: 0 });
    const fn = vi.fn();
    clock.clearTimer(clock.setTimer(10, fn));
    await clock.advance(100);
    expect(fn).not.toHaveBeenCalled();
  });

  it("an error in one timer is reported and the others still fire", async () => {
    const onError = vi.fn();
    const clock = createClock({ mode: "manual", start: 0, onError });
    const after = vi.fn();
    clock.setTimer(1, () => {
      throw new Error("boom");
    });
    clock.setTimer(2, after);
    await clock.advance(5);
    expect(onError).toHaveBeenCalledOnce();
    expect(after).toHaveBeenCalledOnce();
  });

  it("real mode with scale 60: a wall second is an emulated minute, and timers fire on wall timeouts", () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const clock = createClock({ mode: "real", start: 1_767_225_600_000, scale: 60 });
    const fn = vi.fn();
    clock.setTimer(60_000, fn);
    vi.advanceTimersByTime(999);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledOnce();
    expect(clock.now()).toBe(1_767_225_660_000);
    clock.close();
  });

  it("real mode: changing the scale keeps time continuous", () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createClock({ mode: "real", start: 1_000_000, scale: 1 });
    vi.advanceTimersByTime(1_000);
    clock.setScale(10);
    expect(clock.now()).toBe(1_001_000);
    vi.advanceTimersByTime(1_000);
    expect(clock.now()).toBe(1_011_000);
    clock.close();
  });

  it("source mode: reads an injected clock; tick fires what is due", () => {
    let t = 5_000;
    const clock = createClock({ mode: "source", source: { now: () => t } });
    const fn = vi.fn();
    clock.setTimer(100, fn);
    t = 5_099;
    clock.tick();
    expect(fn).not.toHaveBeenCalled();
    t = 5_100;
    clock.tick();
    expect(fn).toHaveBeenCalledOnce();
  });

  it("refuses a scale that is not positive", () => {
    expect(() => createClock({ mode: "manual", scale: 0 })).toThrow(RangeError);
  });
});
