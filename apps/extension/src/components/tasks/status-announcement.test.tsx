import { render, screen, within } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, snapshot, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import type { Task } from "../../lib/shared/types.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TaskPanel } from "./task-panel.tsx";

const generating = task({ status: "in_progress" });
const other = task({ id: "t2", status: "waiting", title: "Rain song" });
const done = { ...generating, status: "success", finished_at: "2025-01-01T10:02:00.000Z" } as Task;

/** The panel showing `tasks`; answers a function that moves the snapshot on to `next`. */
async function panel(tasks: Task[]) {
  await signedIn({ tasks });
  startTestBackground(fakeBackend());
  const view = render(<TaskPanel snapshot={snapshot({ tasks })} />, { wrapper: PlayerProvider });
  return (next: Task[]) => {
    view.rerender(<TaskPanel snapshot={snapshot({ tasks: next, updatedAt: 2 })} />);
  };
}

const cards = () => [...document.querySelectorAll<HTMLElement>("li.task")];

describe("status changes in the task list", () => {
  it("are announced once, by the list's one polite live region, with the track's title", async () => {
    const update = await panel([generating, other]);
    const region = screen.getByTestId("status-announcer");
    expect(region.getAttribute("role")).toBe("status");
    expect(region.textContent).toBe("");
    update([done, other]);
    await expect.poll(() => region.textContent).toBe("lofi piano: Done");
    // The same snapshot again (a refresh with nothing new) says nothing new.
    update([done, other]);
    expect(region.textContent).toBe("lofi piano: Done");
  });

  it("are not announced by the cards, which are no live regions", async () => {
    await panel([generating, other]);
    expect(cards()).toHaveLength(2);
    for (const card of cards()) {
      expect(within(card).queryAllByRole("status")).toEqual([]);
      expect(card.querySelector("[aria-live]")).toBeNull();
    }
  });

  it("are announced in Chinese, every changed track in one sentence", async () => {
    await useLocale("zh_CN");
    const update = await panel([generating, other]);
    update([done, { ...other, status: "failure" }]);
    await expect
      .poll(() => screen.getByTestId("status-announcer").textContent)
      .toBe("lofi piano 状态：已完成和Rain song 状态：失败");
  });
});
