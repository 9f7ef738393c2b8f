import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { composeDraftItem, snapshotItem } from "../../lib/shared/storage.ts";
import type { Task } from "../../lib/shared/types.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TaskItem } from "./task-item.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const done = task({
  status: "success",
  finished_at: "2025-01-01T10:02:00.000Z",
  params: { prompt: "lofi piano", lyrics: "[verse]\nla la", duration: 30, infer_step: 60 },
});
const DETAILS = {
  task: done,
  prompt: "lofi piano",
  lyrics: "[verse]\nla la",
  requested_duration_seconds: 30,
  actual_duration_seconds: 29.5,
  timings: { waiting_seconds: 1, generation_seconds: 119, total_seconds: 120 },
  price: 0.2,
  currency: "CNY",
};

function open(details: unknown = DETAILS, routes = {}, status = 200) {
  const backend = fakeBackend({
    "GET /api/tasks/t1/details": () => json(details, status),
    ...routes,
  });
  startTestBackground(backend);
  const composed: string[] = [];
  render(
    <ul>
      <TaskItem task={done} now={NOW} onCompose={() => composed.push("compose")} />
    </ul>,
    { wrapper: PlayerProvider },
  );
  fireEvent.click(screen.getByRole("button", { name: "Details: lofi piano" }));
  return { backend, composed };
}

const text = () => screen.getByTestId("task-details").textContent;

describe("a task's details", () => {
  it("lists every parameter, the lyrics, durations, timings, cost and platform id", async () => {
    await signedIn({ tasks: [done] });
    open();
    await expect.poll(() => screen.queryByText("Platform task id")).not.toBeNull();
    for (const part of [
      "promptlofi piano",
      "duration30",
      "infer_step60",
      "Lyrics[verse]\nla la",
      "0:30 requested · 0:29 actual",
      "0:01 waiting · 1:59 generating · 2:00 in all",
      "Cost0.2 CNY",
      "Platform task idp1",
    ])
      expect(text()).toContain(part);
  });

  it("leaves the cost out when the platform gave none, and says what is unknown, in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [done] });
    const unknown = { ...DETAILS, actual_duration_seconds: null, price: null, currency: null };
    const backend = fakeBackend({ "GET /api/tasks/t1/details": () => json(unknown) });
    startTestBackground(backend);
    render(
      <ul>
        <TaskItem task={done} now={NOW} />
      </ul>,
      { wrapper: PlayerProvider },
    );
    fireEvent.click(screen.getByRole("button", { name: "详情：lofi piano" }));
    await expect.poll(() => screen.queryByText("平台任务 ID")).not.toBeNull();
    expect(text()).toContain("请求 0:30 · 实际 未知");
    expect(text()).not.toContain("费用");
  });

  it("fills the compose form's draft with the task's settings and asks to show it", async () => {
    await signedIn({ tasks: [done] });
    await composeDraftItem.setValue({ values: { prompt: "old", seed: 5 }, preset: "chill" });
    const { composed } = open();
    fireEvent.click(screen.getByRole("button", { name: "Use these settings" }));
    await expect.poll(() => composed).toEqual(["compose"]);
    expect(await composeDraftItem.getValue()).toEqual({
      values: { prompt: "lofi piano", lyrics: "[verse]\nla la", duration: 30, infer_step: 60 },
      preset: null,
    });
  });

  it("regenerates as a new task that joins the list", async () => {
    await signedIn({ tasks: [done] });
    const again: Task = task({
      id: "t2",
      status: "waiting",
      created_at: "2025-01-01T10:05:00.000Z",
    });
    const { backend } = open(DETAILS, { "POST /api/tasks/t1/regenerate": () => json(again, 201) });
    fireEvent.click(screen.getByRole("button", { name: "Regenerate" }));
    await expect.poll(() => screen.queryByText("Submitted again as a new task.")).not.toBeNull();
    expect(backend.calls("POST", "/api/tasks/t1/regenerate")).toHaveLength(1);
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["t2", "t1"]);
  });

  it("shows why the details could not be read", async () => {
    await signedIn({ tasks: [done] });
    open({ error: "task_not_found", message: "gone" }, {}, 404);
    await expect.poll(() => screen.queryByRole("alert")?.textContent).toBe("Not found.");
  });
});
