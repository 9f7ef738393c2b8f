import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, snapshot, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TaskPanel } from "./task-panel.tsx";

const live = task({ id: "live", status: "success", title: "Live one" });
const found = task({ id: "found", status: "success", title: "Rain song" });
const older = task({ id: "older", status: "success", title: "Rain again" });

function library(pages: Record<string, { tasks: unknown[]; next_cursor: string | null }>) {
  const backend = fakeBackend({
    "GET /api/tasks": (request) => {
      const cursor = new URL(request.url).searchParams.get("cursor") ?? "";
      return json(pages[cursor] ?? { tasks: [], next_cursor: null });
    },
  });
  startTestBackground(backend);
  render(<TaskPanel snapshot={snapshot({ tasks: [live] })} />, { wrapper: PlayerProvider });
  const searches = () =>
    backend.calls("GET", "/api/tasks").map((r) => Object.fromEntries(new URL(r.url).searchParams));
  return { backend, searches };
}

const titles = () => [...document.querySelectorAll(".task .title")].map((el) => el.textContent);

describe("the library bar", () => {
  it("shows the live list until something is asked, and asks nothing for it", async () => {
    await signedIn();
    const { searches } = library({});
    expect(titles()).toEqual(["Live one"]);
    expect(searches()).toEqual([]);
  });

  it("searches once typing pauses, with the whole text, and shows the matches", async () => {
    await signedIn();
    const { searches } = library({ "": { tasks: [found], next_cursor: null } });
    const box = screen.getByRole("searchbox");
    for (const text of ["r", "ra", "rai", "rain"])
      fireEvent.input(box, { target: { value: text } });
    await expect.poll(titles).toEqual(["Rain song"]);
    expect(searches()).toEqual([{ q: "rain", sort: "newest", limit: "20" }]);
  });

  it("filters and sorts at once, and loads the next page of the same query", async () => {
    await signedIn();
    const { searches } = library({
      "": { tasks: [found], next_cursor: "c2" },
      c2: { tasks: [older], next_cursor: null },
    });
    fireEvent.change(screen.getByRole("combobox", { name: "Show" }), {
      target: { value: "favourites" },
    });
    await expect.poll(titles).toEqual(["Rain song"]);
    fireEvent.change(screen.getByRole("combobox", { name: "Order" }), {
      target: { value: "title" },
    });
    await expect.poll(() => searches().length).toBe(2);
    fireEvent.click(await screen.findByRole("button", { name: "Load more" }));
    await expect.poll(titles).toEqual(["Rain song", "Rain again"]);
    expect(searches().at(-1)).toEqual({
      favourite: "true",
      sort: "title",
      cursor: "c2",
      limit: "20",
    });
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("says when nothing matches, in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn();
    library({});
    fireEvent.change(screen.getByRole("combobox", { name: "显示" }), {
      target: { value: "active" },
    });
    await expect.poll(() => screen.queryByText("没有匹配的曲目。")).not.toBeNull();
  });
});
