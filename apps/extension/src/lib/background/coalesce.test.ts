import { describe, expect, it } from "vitest";
import { coalesce } from "./coalesce.ts";

describe("coalesce", () => {
  it("runs once for a burst of calls", async () => {
    let runs = 0;
    const refresh = coalesce(() => Promise.resolve(void (runs += 1)), 5);
    await Promise.all([refresh(), refresh(), refresh()]);
    expect(runs).toBe(1);
  });

  it("runs again for a call made while a run is in flight, after it and never beside it", async () => {
    let runs = 0;
    let inFlight = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const refresh = coalesce(async () => {
      runs += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
      inFlight -= 1;
    }, 1);
    const first = refresh();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = refresh();
    const third = refresh();
    release();
    await Promise.all([first, second, third]);
    expect([runs, most]).toEqual([2, 1]);
  });
});
