import { render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TrackRow } from "./track-row.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const running = task({ status: "in_progress" });

function estimate(overrides: Record<string, unknown> = {}) {
  return {
    based_on: 12,
    typical_seconds: 200,
    low_seconds: 120,
    high_seconds: 400,
    remaining_low_seconds: 60,
    remaining_high_seconds: 215,
    summary: "usually 2–7 minutes",
    ...overrides,
  };
}

function show(answer: object, status = 200, now = NOW) {
  const backend = fakeBackend({ "GET /api/tasks/t1/estimate": () => json(answer, status) });
  startTestBackground(backend);
  const view = render(
    <ul>
      <TrackRow task={running} now={now} />
    </ul>,
    { wrapper: PlayerProvider },
  );
  return { backend, view };
}

const line = () => screen.getByTestId("task-time").textContent;

describe("the estimate of time left on a running task", () => {
  it("gives the range left from the user's similar tasks", async () => {
    await signedIn({ tasks: [running] });
    show(estimate());
    await expect
      .poll(line)
      .toBe("3:05 elapsed · about 1:00 to 3:35 left, judging by 12 of your similar tasks");
  });

  it("counts the range down with the clock, and says when it ran over", async () => {
    await signedIn({ tasks: [running] });
    const { view } = show(estimate());
    await expect.poll(line).toContain("about 1:00 to 3:35 left");
    view.rerender(
      <ul>
        <TrackRow task={running} now={NOW + 100_000} />
      </ul>,
    );
    expect(line()).toContain("about 0:00 to 1:55 left");
    view.rerender(
      <ul>
        <TrackRow task={running} now={NOW + 300_000} />
      </ul>,
    );
    expect(line()).toBe("8:05 elapsed · taking longer than your similar tasks usually do");
  });

  it("keeps the usual 1 to 10 minutes without history or without an answer", async () => {
    await signedIn({ tasks: [running] });
    const { backend, view } = show(estimate({ based_on: 0, typical_seconds: null }));
    await expect.poll(() => backend.calls("GET", "/api/tasks/t1/estimate").length).toBe(1);
    expect(line()).toBe("3:05 elapsed · usually 1 to 10 minutes");
    view.unmount();
    show({ error: "task_not_found", message: "gone" }, 404);
    expect(line()).toBe("3:05 elapsed · usually 1 to 10 minutes");
  });

  it("asks nothing for a finished task", async () => {
    await signedIn();
    const backend = fakeBackend();
    startTestBackground(backend);
    render(
      <ul>
        <TrackRow
          task={task({ status: "success", finished_at: "2025-01-01T10:02:00.000Z" })}
          now={NOW}
        />
      </ul>,
      { wrapper: PlayerProvider },
    );
    expect(screen.queryByTestId("task-time")).toBeNull();
    expect(backend.calls("GET", "/api/tasks/t1/estimate")).toHaveLength(0);
  });

  it("says it in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [running] });
    show(estimate());
    await expect.poll(line).toBe("已用时 3:05 · 根据你的 12 个相似任务，大约还需 1:00 到 3:35");
  });
});
