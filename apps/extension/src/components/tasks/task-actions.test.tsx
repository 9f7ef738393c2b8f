import { fireEvent, render, screen, within } from "@testing-library/preact";
import { TITLE_MAX_LENGTH } from "@overture/backend/api";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import type { Task } from "../../lib/shared/types.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TrackRow } from "./track-row.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const CHANGED = "2025-01-01T10:04:00.000Z";
const done = (overrides: Partial<Task> = {}) =>
  task({ status: "failure", finished_at: "2025-01-01T10:00:03.000Z", ...overrides });
const show = (t: Task, onDeleted?: () => void) =>
  render(
    <ul>
      <TrackRow task={t} now={NOW} onDeleted={onDeleted} />
    </ul>,
    { wrapper: PlayerProvider },
  );

/** Opens the row's "⋯" menu and chooses `item`. */
function choose(item: string, title = "lofi piano") {
  fireEvent.click(screen.getByRole("button", { name: `More actions: ${title}` }));
  fireEvent.click(screen.getByRole("menuitem", { name: item }));
}

async function patched(backend: ReturnType<typeof fakeBackend>) {
  await expect.poll(() => backend.calls("PATCH", "/api/tasks/t1").length).toBe(1);
  return (await backend.calls("PATCH", "/api/tasks/t1")[0]?.json()) as unknown;
}

describe("library actions on a finished task", () => {
  it("has none while the task runs", () => {
    show(task({ status: "in_progress" }));
    expect(screen.queryByRole("button", { name: /^Favourite/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /^More actions/ })).toBeNull();
  });

  it("favourites a track, and shows a favourite as pressed under the same name", async () => {
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
    const stars = screen.getAllByRole("button", { name: "Favourite: lofi piano" });
    expect(stars.map((star) => star.getAttribute("aria-pressed"))).toEqual(["false", "true"]);
    unmount();
  });

  it("renames on Enter, trimmed", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend({
      "PATCH /api/tasks/t1": () => json(done({ title: "Night", updated_at: CHANGED })),
    });
    startTestBackground(backend);
    show(done());
    choose("Rename");
    const input = screen.getByRole<HTMLInputElement>("textbox", { name: "Title" });
    expect(input.value).toBe("lofi piano");
    fireEvent.input(input, { target: { value: "  Night " } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(await patched(backend)).toEqual({ title: "Night" });
    await expect.poll(() => screen.queryByRole("textbox", { name: "Title" })).toBeNull();
  });

  it("gives the keyboard focus back to the row's menu button when a rename ends", async () => {
    await signedIn({ tasks: [done()] });
    startTestBackground(fakeBackend());
    show(done());
    choose("Rename");
    const input = screen.getByRole("textbox", { name: "Title" });
    await expect.poll(() => document.activeElement).toBe(input);
    fireEvent.keyDown(input, { key: "Escape" });
    await expect
      .poll(() => document.activeElement)
      .toBe(screen.getByRole("button", { name: "More actions: lofi piano" }));
  });

  it("gives up a rename on Escape without asking the backend", async () => {
    await signedIn({ tasks: [done()] });
    const backend = fakeBackend();
    startTestBackground(backend);
    show(done());
    choose("Rename");
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
    choose("Rename");
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
    choose("Rename");
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
    choose("Rename");
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
    choose("Delete…");
    expect(backend.calls("DELETE", "/api/tasks/t1")).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Keep" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    choose("Delete…");
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
    await expect.poll(() => told).toEqual(["deleted"]);
    expect(backend.calls("DELETE", "/api/tasks/t1")).toHaveLength(1);
  });

  it("asks about the track by its title before a delete, in English and Chinese", async () => {
    const { unmount } = show(done());
    choose("Delete…");
    const dialog = screen.getByRole("dialog", { name: "Delete this track?" });
    expect(
      within(dialog).getByText("Delete “lofi piano”? Its archived audio is removed too."),
    ).toBeTruthy();
    unmount();
    await useLocale("zh_CN");
    show(done());
    fireEvent.click(screen.getByRole("button", { name: "更多操作：lofi piano" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "删除…" }));
    expect(
      within(screen.getByRole("dialog")).getByText("删除“lofi piano”？其归档音频也会被删除。"),
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
    fireEvent.click(screen.getByRole("button", { name: "更多操作：lofi piano" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "删除…" }));
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "删除" }));
    await expect
      .poll(() => screen.queryByRole("alert")?.textContent)
      .toBe("该任务仍在运行：请先取消，再删除。");
  });
});

describe("the row's menu from the keyboard (the menu button pattern)", () => {
  const items = () => screen.getAllByRole("menuitem");

  it("opens on Enter with the first item focused, and moves with the arrows, Home and End", async () => {
    show(done());
    const button = screen.getByRole("button", { name: "More actions: lofi piano" });
    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => document.activeElement).toBe(items()[0]);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "ArrowDown" });
    expect(document.activeElement).toBe(items()[1]);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "End" });
    expect(document.activeElement).toBe(items().at(-1));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "ArrowDown" });
    expect(document.activeElement).toBe(items()[0]);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "ArrowUp" });
    expect(document.activeElement).toBe(items().at(-1));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "Home" });
    expect(document.activeElement).toBe(items()[0]);
  });

  it("closes on Escape and gives the focus back to its button", async () => {
    show(done());
    const button = screen.getByRole("button", { name: "More actions: lofi piano" });
    fireEvent.click(button);
    await expect.poll(() => document.activeElement).toBe(items()[0]);
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute("aria-expanded")).toBe("false");
  });

  it("opens from the arrow keys on its button too", async () => {
    show(done());
    fireEvent.keyDown(screen.getByRole("button", { name: "More actions: lofi piano" }), {
      key: "ArrowDown",
    });
    await expect.poll(() => document.activeElement).toBe(items()[0]);
  });

  it("opens on its last item from ↑ on its button, as the menu button pattern says", async () => {
    show(done());
    fireEvent.keyDown(screen.getByRole("button", { name: "More actions: lofi piano" }), {
      key: "ArrowUp",
    });
    await expect.poll(() => document.activeElement?.textContent).toBe("Delete…");
  });

  it("does nothing for a disabled item: the MP3 of a track not archived yet", () => {
    show(task({ status: "success", finished_at: "2025-01-01T10:00:03.000Z" }));
    fireEvent.click(screen.getByRole("button", { name: "More actions: lofi piano" }));
    const mp3 = screen.getByRole("menuitem", { name: /^Download MP3/ });
    expect(mp3.getAttribute("aria-disabled")).toBe("true");
    expect(mp3.textContent).toBe("Download MP3 · once archived");
    fireEvent.click(mp3);
    expect(screen.getByRole("menu")).toBeTruthy();
  });
});
