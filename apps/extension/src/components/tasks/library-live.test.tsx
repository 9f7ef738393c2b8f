import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../lib/shared/snapshot.ts";
import { settleAsync, signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, snapshot, task } from "../../testing/fixtures.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TaskPanel } from "./task-panel.tsx";

// The list follows the snapshot while it shows rows it fetched itself (older pages, a search):
// a task deleted on another device leaves them, a new task that matches the search joins them.
const LATER = "2025-01-01T11:00:00.000Z";
const live = task({ id: "live", status: "success", title: "Live one" });
const older = task({ id: "older", status: "success", title: "Rain again" });
const found = task({ id: "found", status: "success", title: "Rain song" });

function panel(pages: Record<string, { tasks: unknown[]; next_cursor: string | null }>) {
  startTestBackground(
    fakeBackend({
      "GET /api/tasks": (request) => {
        const params = new URL(request.url).searchParams;
        return json(pages[params.get("cursor") ?? params.get("q") ?? ""] ?? pages[""]);
      },
    }),
  );
  const view = render(<TaskPanel snapshot={snapshot({ tasks: [live], nextCursor: "c2" })} />, {
    wrapper: PlayerProvider,
  });
  return (next: Partial<Snapshot>) => {
    view.rerender(<TaskPanel snapshot={snapshot({ nextCursor: "c2", ...next })} />);
  };
}

const titles = () => [...document.querySelectorAll(".task .title")].map((el) => el.textContent);
const search = (text: string) => {
  fireEvent.input(screen.getByRole("searchbox"), { target: { value: text } });
};
const deletedElsewhere = { id: "older", at: LATER };

describe("the library following the snapshot", () => {
  it("drops a task deleted elsewhere from the older pages it loaded", async () => {
    await signedIn();
    const update = panel({ c2: { tasks: [older], next_cursor: null } });
    // After the first page's effect ran, as a person's click always is.
    await settleAsync();
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    await expect.poll(titles).toEqual(["Live one", "Rain again"]);
    update({ tasks: [live], deletions: [deletedElsewhere] });
    await expect.poll(titles).toEqual(["Live one"]);
  });

  it("drops a task deleted elsewhere from the search results", async () => {
    await signedIn();
    const update = panel({ rain: { tasks: [found, older], next_cursor: null } });
    search("rain");
    await expect.poll(titles).toEqual(["Rain song", "Rain again"]);
    update({ tasks: [live], deletions: [deletedElsewhere] });
    await expect.poll(titles).toEqual(["Rain song"]);
  });

  it("adds a new task that matches the search, in its place", async () => {
    await signedIn();
    const update = panel({ rain: { tasks: [found], next_cursor: null } });
    search("rain");
    await expect.poll(titles).toEqual(["Rain song"]);
    const fresh = task({ id: "new", title: "More rain", created_at: LATER, updated_at: LATER });
    update({ tasks: [fresh, live] });
    await expect.poll(titles).toEqual(["More rain", "Rain song"]);
  });

  it("leaves out a new task that does not match the search", async () => {
    await signedIn();
    const update = panel({ rain: { tasks: [found], next_cursor: null } });
    search("rain");
    await expect.poll(titles).toEqual(["Rain song"]);
    const fresh = task({ id: "new", title: "Sunny", created_at: LATER, updated_at: LATER });
    update({ tasks: [fresh, live] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(titles()).toEqual(["Rain song"]);
  });

  it("drops a listed task that no longer matches the filter (unstarred in the favourites)", async () => {
    await signedIn();
    const starred = { ...found, favourite: true };
    const update = panel({ "": { tasks: [starred], next_cursor: null } });
    fireEvent.change(screen.getByRole("combobox", { name: "Show" }), {
      target: { value: "favourites" },
    });
    await expect.poll(titles).toEqual(["Rain song"]);
    update({ tasks: [{ ...starred, favourite: false, updated_at: LATER }, live] });
    await expect.poll(titles).toEqual([]);
  });
});
