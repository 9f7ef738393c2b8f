import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import type { Task } from "../../lib/types.ts";
import { TaskItem } from "./task-item.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const show = (t: Task) =>
  render(
    <ul>
      <TaskItem task={t} now={NOW} />
    </ul>,
  );

describe("a task in the list", () => {
  it("shows its status and elapsed time against the usual 1–10 minutes", () => {
    show(task({ status: "in_progress" }));
    expect(screen.getByRole("status").textContent).toBe("Generating");
    expect(screen.getByText("3:05 elapsed · usually 1 to 10 minutes")).toBeTruthy();
  });

  it("says a queued task waits locally for a free slot", () => {
    show(task({ status: "queued" }));
    expect(
      screen.getByText("Waiting for a free slot; it is submitted automatically."),
    ).toBeTruthy();
  });

  it("gives the reason of a failure", () => {
    show(
      task({
        status: "failure",
        error: "GPU out of memory",
        finished_at: "2025-01-01T10:02:00.000Z",
      }),
    );
    expect(screen.getByTestId("failure-reason").textContent).toBe("Reason: GPU out of memory");
  });

  it("says an unknown outcome was not resubmitted", () => {
    show(task({ status: "unknown" }));
    expect(screen.getByText(/Outcome unknown — not resubmitted/)).toBeTruthy();
  });

  it("says an unknown outcome was not resubmitted, in Chinese", async () => {
    await useLocale("zh_CN");
    show(task({ status: "unknown" }));
    expect(screen.getByText("结果未知——为避免重复计费，任务未重新提交。")).toBeTruthy();
  });

  it.each(["queued", "waiting", "in_progress"] as const)(
    "offers Cancel for a %s task",
    (status) => {
      show(task({ status }));
      expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
    },
  );

  it.each(["submitting", "success", "failure", "cancelled", "unknown", "rejected"] as const)(
    "offers no Cancel for a %s task",
    (status) => {
      show(task({ status, file_url: null }));
      expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    },
  );

  it("cancels through the background", async () => {
    await signedIn({ tasks: [task({ status: "waiting" })] });
    const backend = fakeBackend({
      "POST /api/tasks/t1/cancel": () =>
        json(task({ status: "cancelled", updated_at: "2025-01-01T10:03:00.000Z" })),
    });
    startTestBackground(backend);
    show(task({ status: "waiting" }));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await expect.poll(() => backend.calls("POST", "/api/tasks/t1/cancel").length).toBe(1);
  });
});
