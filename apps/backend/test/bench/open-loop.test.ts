import { describe, expect, it } from "vitest";
import { keptUp, type OpenLoopCounts } from "../../bench/lib/open-loop.ts";

const steady: OpenLoopCounts = {
  offeredPerSecond: 2_000,
  answeredPerSecond: 1_990,
  backlogAtStart: 30,
  backlogAtEnd: 34,
  connections: 50,
};

describe("open-loop kept-up check (bench)", () => {
  it("says a server answering the offered rate with a steady backlog kept up", () => {
    expect(keptUp(steady)).toEqual({ kept: true });
  });

  it("says a server answering less than the offered rate did not keep up", () => {
    const verdict = keptUp({ ...steady, answeredPerSecond: 1_500 });
    expect(verdict).toEqual({ kept: false, reason: "answered 1500/s of 2000/s offered" });
  });

  it("says a server whose backlog grew did not keep up, even at the offered answer rate", () => {
    const verdict = keptUp({ ...steady, backlogAtEnd: 400 });
    expect(verdict).toEqual({ kept: false, reason: "the backlog grew from 30 to 400 deliveries" });
  });

  it("allows the backlog to grow by one delivery per connection", () => {
    expect(
      keptUp({ ...steady, offeredPerSecond: 100, answeredPerSecond: 100, backlogAtEnd: 80 }),
    ).toEqual({ kept: true });
  });

  it("says a run that answered nothing did not keep up", () => {
    expect(keptUp({ ...steady, answeredPerSecond: Number.NaN }).kept).toBe(false);
  });
});
