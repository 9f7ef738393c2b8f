import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TrackRow } from "./track-row.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const done = task({ status: "success", finished_at: "2025-01-01T10:02:00.000Z" });
const share = (overrides: Record<string, unknown> = {}) => ({
  id: "s1",
  task_id: "t1",
  url: null,
  include_text: false,
  status: "active",
  expires_at: null,
  revoked_at: null,
  created_at: "2025-01-01T10:03:00.000Z",
  ...overrides,
});

/** Opens the row's "⋯" menu and chooses `item`. */
function choose(item: string, more = "More actions: lofi piano") {
  fireEvent.click(screen.getByRole("button", { name: more }));
  fireEvent.click(screen.getByRole("menuitem", { name: item }));
}

function open(routes = {}) {
  const backend = fakeBackend({
    "GET /api/tasks/t1/shares": () => json({ shares: [share()] }),
    ...routes,
  });
  startTestBackground(backend);
  render(
    <ul>
      <TrackRow task={done} now={NOW} />
    </ul>,
    { wrapper: PlayerProvider },
  );
  return backend;
}

describe("sharing a track", () => {
  it("is offered on a successful track only", () => {
    const { unmount } = render(
      <ul>
        <TrackRow task={task({ status: "failure" })} now={NOW} />
      </ul>,
      { wrapper: PlayerProvider },
    );
    fireEvent.click(screen.getByRole("button", { name: "More actions: lofi piano" }));
    expect(screen.queryByRole("menuitem", { name: /^Share/ })).toBeNull();
    unmount();
  });

  it("opens in a sheet named after the track, and Escape gives the focus back to the menu button", async () => {
    await signedIn({ tasks: [done] });
    open();
    choose("Share…");
    const sheet = screen.getByRole("dialog", { name: "Share “lofi piano”" });
    expect(within(sheet).getByTestId("share-panel")).toBeTruthy();
    fireEvent(sheet, new Event("cancel", { cancelable: true }));
    await expect.poll(() => screen.queryByRole("dialog")).toBeNull();
    await expect
      .poll(() => document.activeElement)
      .toBe(screen.getByRole("button", { name: "More actions: lofi piano" }));
  });

  it("creates a link with the chosen expiry and text, shows it once and copies it", async () => {
    await signedIn({ tasks: [done] });
    const writeText = vi.fn(() => Promise.resolve());
    vi.spyOn(navigator, "clipboard", "get").mockReturnValue({ writeText } as unknown as Clipboard);
    const backend = open({
      "POST /api/tasks/t1/shares": () =>
        json(share({ id: "s2", url: "http://127.0.0.1/s/tok", include_text: true }), 201),
    });
    choose("Share…");
    fireEvent.change(screen.getByRole("combobox", { name: "Link expires after" }), {
      target: { value: "30d" },
    });
    fireEvent.click(screen.getByRole("checkbox", { name: "Show the prompt and lyrics" }));
    fireEvent.click(screen.getByRole("button", { name: "Create link: lofi piano" }));
    const link = await screen.findByTestId("share-url");
    expect(link.textContent).toBe("http://127.0.0.1/s/tok");
    expect(await backend.calls("POST", "/api/tasks/t1/shares")[0]?.json()).toEqual({
      expires_in: "30d",
      include_text: true,
    });
    fireEvent.click(screen.getByRole("button", { name: "Copy share link: lofi piano" }));
    await expect
      .poll(() => screen.queryByRole("button", { name: "Share link copied: lofi piano" }))
      .not.toBeNull();
    expect(writeText).toHaveBeenCalledWith("http://127.0.0.1/s/tok");
  });

  it("lists the track's links and revokes an active one", async () => {
    await signedIn({ tasks: [done] });
    const backend = open({
      "DELETE /api/shares/s1": () =>
        json(share({ status: "revoked", revoked_at: "2025-01-01T10:04:00.000Z" })),
    });
    choose("Share…");
    const list = await screen.findByRole("list", { name: "Links to this track" });
    expect(list.textContent).toContain("Active, never expires");
    fireEvent.click(
      within(list).getByRole("button", { name: "Revoke: lofi piano (Active, never expires)" }),
    );
    await expect.poll(() => list.textContent).toBe("Revoked");
    expect(backend.calls("DELETE", "/api/shares/s1")).toHaveLength(1);
  });

  it("speaks Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [done] });
    open();
    choose("分享…", "更多操作：lofi piano");
    expect(await screen.findByText("有效，永不过期")).toBeTruthy();
    expect(screen.getByRole("option", { name: "30 天" })).toBeTruthy();
  });

  it("names each link's button after the track and the link, in Chinese too", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [done] });
    open({
      "GET /api/tasks/t1/shares": () =>
        json({ shares: [share(), share({ id: "s2", include_text: true })] }),
    });
    choose("分享…", "更多操作：lofi piano");
    const list = await screen.findByRole("list", { name: "此曲目的链接" });
    const names = within(list)
      .getAllByRole("button")
      .map((button) => button.getAttribute("aria-label"));
    expect(names).toEqual([
      "撤销：lofi piano（有效，永不过期）",
      "撤销：lofi piano（有效，永不过期 · 含提示词和歌词）",
    ]);
    expect(screen.getByRole("button", { name: "创建链接：lofi piano" }).textContent).toBe(
      "创建链接",
    );
  });
});
