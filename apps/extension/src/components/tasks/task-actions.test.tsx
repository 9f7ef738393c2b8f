import { fireEvent, render, screen, within } from "@testing-library/preact";
import { TITLE_MAX_LENGTH } from "@overture/backend/api";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import type { Task } from "../../lib/shared/types.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TaskItem } from "./task-item.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const CHANGED = "2025-01-01T10:04:00.000Z";
const done = (overrides: Partial<Task> = {}) =>
  task({ status: "failure", finished_at: "2025-01-01T10:00:03.000Z", ...overrides });
const show = (t: Task, onDeleted?: () => void) =>
  render(
    <ul>
      <TaskItem task={t} now={NOW} onDeleted={onDeleted} />
    </ul>,
    { wrapper: PlayerProvider },
  );

async function patched(backend: ReturnType<typeof fakeBackend>) {
  await expect.poll(() => backend.calls("PATCH", "/api/tasks/t1").length).toBe(1);
  return (await backend.calls("PATCH", "/api/tasks/t1")[0]?.json()) as unknown;
}

describe("library actions on a finished task", () => {
  it("has none while the task runs", () => {
    show(task({ status: "in_progress" }));
    expect(screen.queryByRole("button", { name: /^Favourite/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Delete/ })).toBeNull();
  });

  it("favourites a track, and shows a favourite as pressed", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend({
      "PATCH /api/tasks/t1": () => json(done({ favourite: true, updated_at: CHANGED })),
    });
    startTestBackground(backend);
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Favourite: lofi piano" }));
    expect(await patched(backend)).toEqual({ favourite: true });
    screen.getByRole("button", { name: "Favourite: lofi piano" });
    const { unmount } = show(done({ id: "t2", favourite: true }));
    expect(
      screen
        .getByRole("button", { name: "Remove from favourites: lofi piano" })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    unmount();
  });

  it("renames on Enter, trimmed", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend({
      "PATCH /api/tasks/t1": () => json(done({ title: "Night", updated_at: CHANGED })),
    });
    startTestBackground(backend);
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Rename: lofi piano" }));
    const input = screen.getByRole<HTMLInputElement>("textbox", { name: "Title" });
    expect(input.value).toBe("lofi piano");
    fireEvent.input(input, { target: { value: "  Night " } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(await patched(backend)).toEqual({ title: "Night" });
    await expect.poll(() => screen.queryByRole("textbox", { name: "Title" })).toBeNull();
  });

  it("gives the keyboard focus back to Rename when a rename ends", async () => {
    await signedIn({ tasks: [done()] });
    startTestBackground(fakeBackend());
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Rename: lofi piano" }));
    const input = screen.getByRole("textbox", { name: "Title" });
    await expect.poll(() => document.activeElement).toBe(input);
    fireEvent.keyDown(input, { key: "Escape" });
    await expect
      .poll(() => document.activeElement)
      .toBe(screen.getByRole("button", { name: "Rename: lofi piano" }));
  });

  it("gives up a rename on Escape without asking the backend", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend();
    startTestBackground(backend);
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Rename: lofi piano" }));
    const input = screen.getByRole("textbox", { name: "Title" });
    fireEvent.input(input, { target: { value: "Other" } });
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByRole("textbox", { name: "Title" })).toBeNull();
    expect(screen.getByText("lofi piano")).toBeTruthy();
    expect(backend.calls("PATCH", "/api/tasks/t1")).toHaveLength(0);
  });

  it("refuses an empty or too long title before asking, in English and Chinese", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend();
    startTestBackground(backend);
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Rename: lofi piano" }));
    const input = screen.getByRole("textbox", { name: "Title" });
    fireEvent.input(input, { target: { value: "   " } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(screen.getByRole("alert").textContent).toBe("A title cannot be empty.");
    fireEvent.input(input, { target: { value: "x".repeat(201) } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(screen.getByRole("alert").textContent).toBe("A title has at most 200 characters.");
    expect(backend.calls("PATCH", "/api/tasks/t1")).toHaveLength(0);
  });

  it("sends a title of exactly the backend's limit, counted in characters, not UTF-16 units", async () => {
    await signedIn({ tasks: [done()] });
    const title = "🎵".repeat(TITLE_MAX_LENGTH);
    const backend = fakeBackend({
      "PATCH /api/tasks/t1": () => json(done({ title, updated_at: CHANGED })),
    });
    startTestBackground(backend);
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Rename: lofi piano" }));
    const input = screen.getByRole("textbox", { name: "Title" });
    fireEvent.input(input, { target: { value: title } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(await patched(backend)).toEqual({ title });
  });

  it("shows the backend's refusal of a rename and keeps the editor open", async () => {
    await signedIn({ tasks: [done()] });
    startTestBackground(
      fakeBackend({ "PATCH /api/tasks/t1": () => json({ error: "not_found", message: "x" }, 404) }),
    );
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "Rename: lofi piano" }));
    fireEvent.keyDown(screen.getByRole("textbox", { name: "Title" }), { key: "Enter" });
    await expect.poll(() => screen.queryByRole("alert")?.textContent).toBe("Not found.");
    expect(screen.getByRole("textbox", { name: "Title" })).toBeTruthy();
  });

  it("deletes only once confirmed, and tells the list", async () => {
    await signedIn({ tasks: [done()] });
    const deletion = {
      task: done({ deleted_at: CHANGED, updated_at: CHANGED }),
      undo_until: CHANGED,
    };
    const backend = fakeBackend({ "DELETE /api/tasks/t1": () => json(deletion) });
    startTestBackground(backend);
    const told: unknown[] = [];
    show(done(), () => told.push("deleted"));
    fireEvent.click(screen.getByRole("button", { name: "Delete: lofi piano" }));
    expect(backend.calls("DELETE", "/api/tasks/t1")).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Keep" }));
    fireEvent.click(screen.getByRole("button", { name: "Delete: lofi piano" }));
    fireEvent.click(within(screen.getByRole("group")).getByRole("button", { name: "Delete" }));
    await expect.poll(() => told).toEqual(["deleted"]);
    expect(backend.calls("DELETE", "/api/tasks/t1")).toHaveLength(1);
  });

  it("names the delete confirmation after the track, in English and Chinese", async () => {
    const { unmount } = show(done());
    fireEvent.click(screen.getByRole("button", { name: "Delete: lofi piano" }));
    expect(
      screen.getByRole("group", {
        name: "Delete “lofi piano”? Its archived audio is removed too.",
      }),
    ).toBeTruthy();
    unmount();
    await useLocale("zh_CN");
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "删除：lofi piano" }));
    expect(
      screen.getByRole("group", { name: "删除“lofi piano”？其归档音频也会被删除。" }),
    ).toBeTruthy();
  });

  it("explains that a running task cannot be deleted, in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [done()] });
    startTestBackground(
      fakeBackend({
        "DELETE /api/tasks/t1": () => json({ error: "task_active", message: "running" }, 409),
      }),
    );
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "删除：lofi piano" }));
    fireEvent.click(within(screen.getByRole("group")).getByRole("button", { name: "删除" }));
    await expect
      .poll(() => screen.queryByRole("alert")?.textContent)
      .toBe("该任务仍在运行：请先取消，再删除。");
  });
});
