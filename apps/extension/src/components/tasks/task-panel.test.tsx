import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, snapshot, task } from "../../testing/fixtures.ts";
import { snapshotItem } from "../../lib/shared/storage.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TaskPanel } from "./task-panel.tsx";
import { UNDO_MS } from "./undo-toast.tsx";

const AT = "2025-01-01T10:04:00.000Z";
const done = task({ status: "failure", finished_at: "2025-01-01T10:00:03.000Z" });

function deleteFirst() {
  fireEvent.click(screen.getByRole("button", { name: "More actions: lofi piano" }));
  fireEvent.click(screen.getByRole("menuitem", { name: "Delete…" }));
  fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Delete" }));
}

describe("deleting from the task list", () => {
  it("takes the task off the snapshot and offers Undo, which restores it", async () => {
    await signedIn({ tasks: [done] });
    const backend = fakeBackend({
      "DELETE /api/tasks/t1": () =>
        json({ task: { ...done, deleted_at: AT, updated_at: AT }, undo_until: AT }),
      "POST /api/tasks/t1/restore": () => json({ ...done, updated_at: "2025-01-01T10:04:01.000Z" }),
    });
    startTestBackground(backend);
    render(<TaskPanel snapshot={snapshot({ tasks: [done] })} />, { wrapper: PlayerProvider });
    deleteFirst();
    await expect
      .poll(() => screen.queryByTestId("undo-toast")?.textContent)
      .toContain("Track deleted.");
    expect((await snapshotItem.getValue()).tasks).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    await expect.poll(() => backend.calls("POST", "/api/tasks/t1/restore").length).toBe(1);
    await expect.poll(() => screen.queryByTestId("undo-toast")).toBeNull();
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["t1"]);
  });

  it("moves the keyboard focus to Undo, which the deleted row took with it", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(
      fakeBackend({
        "DELETE /api/tasks/t1": () =>
          json({ task: { ...done, deleted_at: AT, updated_at: AT }, undo_until: AT }),
      }),
    );
    render(<TaskPanel snapshot={snapshot({ tasks: [done] })} />, { wrapper: PlayerProvider });
    screen.getByRole("button", { name: "More actions: lofi piano" }).focus();
    deleteFirst();
    const undo = await screen.findByRole("button", { name: "Undo" });
    await expect.poll(() => document.activeElement).toBe(undo);
  });

  it("gives the focus to the restored row's menu button once Undo has brought it back", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(
      fakeBackend({
        "DELETE /api/tasks/t1": () =>
          json({ task: { ...done, deleted_at: AT, updated_at: AT }, undo_until: AT }),
        "POST /api/tasks/t1/restore": () =>
          json({ ...done, updated_at: "2025-01-01T10:04:01.000Z" }),
      }),
    );
    render(<TaskPanel snapshot={snapshot({ tasks: [done] })} />, { wrapper: PlayerProvider });
    screen.getByRole("button", { name: "More actions: lofi piano" }).focus();
    deleteFirst();
    const undo = await screen.findByRole("button", { name: "Undo" });
    await expect.poll(() => document.activeElement).toBe(undo);
    undo.click();
    await expect
      .poll(() => document.activeElement?.getAttribute("aria-label"))
      .toBe("More actions: lofi piano");
  });

  it(
    "gives the focus to the next row's menu button when the undo window passes",
    async () => {
      const next = task({ id: "t2", status: "failure", params: { prompt: "rain" } });
      await signedIn({ tasks: [done, next] });
      startTestBackground(
        fakeBackend({
          "DELETE /api/tasks/t1": () =>
            json({ task: { ...done, deleted_at: AT, updated_at: AT }, undo_until: AT }),
        }),
      );
      render(<TaskPanel snapshot={snapshot({ tasks: [done, next] })} />, {
        wrapper: PlayerProvider,
      });
      screen.getByRole("button", { name: "More actions: lofi piano" }).focus();
      deleteFirst();
      const undo = await screen.findByRole("button", { name: "Undo" });
      await expect.poll(() => document.activeElement).toBe(undo);
      await expect
        .poll(() => document.activeElement?.getAttribute("aria-label"), {
          timeout: UNDO_MS + 3_000,
        })
        .toBe("More actions: rain");
    },
    UNDO_MS + 10_000,
  );

  it("says so when the undo came too late", async () => {
    await signedIn({ tasks: [done] });
    startTestBackground(
      fakeBackend({
        "DELETE /api/tasks/t1": () =>
          json({ task: { ...done, deleted_at: AT, updated_at: AT }, undo_until: AT }),
        "POST /api/tasks/t1/restore": () => json({ error: "undo_expired", message: "late" }, 410),
      }),
    );
    render(<TaskPanel snapshot={snapshot({ tasks: [done] })} />, { wrapper: PlayerProvider });
    deleteFirst();
    fireEvent.click(await screen.findByRole("button", { name: "Undo" }));
    await expect
      .poll(() => screen.queryByTestId("undo-toast")?.textContent)
      .toBe("It is too late to undo; the track is gone.");
  });
});
