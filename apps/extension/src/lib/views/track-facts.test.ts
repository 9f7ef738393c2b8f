import { describe, expect, it } from "vitest";
import { task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { madeAt, takesOf, trackSeconds } from "./track-facts.ts";

const at = (minute: number) => `2025-01-01T10:${String(minute).padStart(2, "0")}:00.000Z`;

describe("takes of the same song", () => {
  it("numbers the tasks of one prompt and lyrics by when they were made, oldest first", () => {
    const takes = takesOf([
      task({ id: "c", created_at: at(9), params: { prompt: "lofi", seeds: [2] } }),
      task({ id: "a", created_at: at(1), params: { prompt: "lofi" } }),
      task({ id: "b", created_at: at(5), params: { prompt: "lofi", duration: 90 } }),
    ]);
    expect([takes.get("a"), takes.get("b"), takes.get("c")]).toEqual([
      { take: 1, of: 3 },
      { take: 2, of: 3 },
      { take: 3, of: 3 },
    ]);
  });

  it("counts other lyrics as another song", () => {
    const takes = takesOf([
      task({ id: "a", created_at: at(1), params: { prompt: "lofi", lyrics: "la" } }),
      task({ id: "b", created_at: at(2), params: { prompt: "lofi", lyrics: "do" } }),
    ]);
    expect(takes.get("b")).toEqual({ take: 1, of: 1 });
  });

  it("counts a task listed twice (the snapshot and a page) once", () => {
    const one = task({ id: "a", params: { prompt: "lofi" } });
    expect(takesOf([one, one]).get("a")).toEqual({ take: 1, of: 1 });
  });
});

describe("a track's length before its audio is read", () => {
  it("takes the waveform's length first", () => {
    expect(trackSeconds(task({ params: { duration: 60 } }), 8.2)).toBe(8.2);
  });

  it("takes the platform's report in seconds, else what was asked for", () => {
    const reported = task({
      usage_info: { unit: "seconds", quantity: 58 },
      params: { duration: 60 },
    });
    expect(trackSeconds(reported)).toBe(58);
    const tokens = task({
      usage_info: { unit: "tokens", quantity: 999 },
      params: { duration: 60 },
    });
    expect(trackSeconds(tokens)).toBe(60);
    expect(trackSeconds(task({ params: {} }))).toBeNull();
  });
});

describe("when a track was made, on its row", () => {
  const morning = new Date(2025, 0, 1, 9, 5);
  const made = task({ created_at: morning.toISOString() });
  const sameDay = new Date(2025, 0, 1, 18, 0).getTime();
  const later = new Date(2025, 0, 3, 18, 0).getTime();

  it("writes the hour as English does: 9:05 AM, not 09:05 AM", () => {
    expect(madeAt(made, sameDay)).toBe("9:05 AM");
    expect(madeAt(made, later)).toBe("Jan 1, 9:05 AM");
  });

  it("writes it as Chinese does: 09:05 on a 24-hour clock", async () => {
    await useLocale("zh_CN");
    expect(madeAt(made, sameDay)).toBe("09:05");
    expect(madeAt(made, later)).toBe("1月1日 09:05");
  });
});
