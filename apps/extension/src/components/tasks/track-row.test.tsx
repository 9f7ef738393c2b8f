import { fireEvent, render, screen, within } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { archivedFields, fakeBackend, json, refusal, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import type { Task } from "../../lib/shared/types.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TrackRow } from "./track-row.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const show = (t: Task) =>
  render(
    <ul>
      <TrackRow task={t} now={NOW} />
    </ul>,
    { wrapper: PlayerProvider },
  );

/** The time line of a task that ended 3 s after creation, for each final state. */
function endedLines() {
  const ended = { finished_at: "2025-01-01T10:00:03.000Z", updated_at: "2025-01-01T10:00:03.000Z" };
  return (["failure", "cancelled", "rejected"] as const).map((status) => {
    const { unmount } = show(task({ status, ...ended }));
    const text = screen.getByTestId("task-time").textContent;
    unmount();
    return text;
  });
}

describe("a track's waveform in the side panel", () => {
  it("reads its position as times, as the player's does, not as a bare number", () => {
    const done = task({
      status: "success",
      finished_at: "2025-01-01T10:02:00.000Z",
      params: { prompt: "lofi piano", duration: 30 },
    });
    render(
      <ul>
        <TrackRow task={done} now={NOW} wide />
      </ul>,
      { wrapper: PlayerProvider },
    );
    const slider = screen.getByRole("slider", { name: "Position in lofi piano" });
    expect(slider.getAttribute("aria-valuetext")).toBe("0:00 / 0:30");
  });
});

describe("a task in the list", () => {
  it("shows its status and elapsed time against the usual 1–10 minutes", () => {
    show(task({ status: "in_progress" }));
    expect(document.querySelector(".task .state-word")?.textContent).toBe("Generating");
    expect(screen.getByText("3:05 elapsed · usually 1 to 10 minutes")).toBeTruthy();
  });

  it("says how long a queued task has waited", () => {
    show(task({ status: "queued" }));
    expect(screen.getByTestId("task-time").textContent).toBe("Queued for 3:05");
  });

  it("says when a task ended for each final state, in English", () => {
    expect(endedLines()).toEqual([
      "Failed after 0:03",
      "Cancelled after 0:03",
      "Refused after 0:03",
    ]);
  });

  it("says when a task ended for each final state, in Chinese", async () => {
    await useLocale("zh_CN");
    expect(endedLines()).toEqual(["0:03 后失败", "0:03 后已取消", "0:03 后被拒绝"]);
  });

  it("stops the clock of a cancelled task that has no finish time", () => {
    const cancelled = task({
      status: "cancelled",
      finished_at: null,
      updated_at: "2025-01-01T10:00:04.000Z",
    });
    const { rerender } = show(cancelled);
    expect(screen.getByTestId("task-time").textContent).toBe("Cancelled after 0:04");
    rerender(
      <ul>
        <TrackRow task={cancelled} now={NOW + 90_000} />
      </ul>,
    );
    expect(screen.getByTestId("task-time").textContent).toBe("Cancelled after 0:04");
  });

  it("says when an unknown outcome was last seen instead of counting on", () => {
    const unknown = task({
      status: "unknown",
      finished_at: null,
      updated_at: "2025-01-01T10:01:00.000Z",
    });
    show(unknown);
    expect(screen.getByTestId("task-time").textContent).toBe(
      "Outcome unknown — last seen 2 min ago",
    );
  });

  it("says when an unknown outcome was last seen, in Chinese", async () => {
    await useLocale("zh_CN");
    show(task({ status: "unknown", finished_at: null, updated_at: "2025-01-01T10:01:00.000Z" }));
    expect(screen.getByTestId("task-time").textContent).toBe("结果未知——最后一次更新在 2 分钟前");
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
      expect(screen.getByRole("button", { name: "Cancel: lofi piano" })).toBeTruthy();
    },
  );

  it.each(["submitting", "success", "failure", "cancelled", "unknown", "rejected"] as const)(
    "offers no Cancel for a %s task",
    (status) => {
      show(task({ status, file_url: null }));
      expect(screen.queryByRole("button", { name: /^Cancel/ })).toBeNull();
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
    fireEvent.click(screen.getByRole("button", { name: "Cancel: lofi piano" }));
    await expect.poll(() => backend.calls("POST", "/api/tasks/t1/cancel").length).toBe(1);
  });

  it("drops a failed cancel's message once the task has moved on", async () => {
    await signedIn({ tasks: [task({ status: "waiting" })] });
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    const { rerender } = show(task({ status: "waiting" }));
    fireEvent.click(screen.getByRole("button", { name: "Cancel: lofi piano" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The backend could not be reached.",
    );
    const finished = {
      finished_at: "2025-01-01T10:03:00.000Z",
      updated_at: "2025-01-01T10:03:00.000Z",
    };
    rerender(
      <ul>
        <TrackRow task={task({ status: "success", ...finished })} now={NOW} />
      </ul>,
    );
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says callbacks for its account are refused because the secret does not match", () => {
    render(
      <ul>
        <TrackRow
          task={task({ status: "in_progress", webhook_expected: true })}
          now={NOW}
          refusal={refusal()}
        />
      </ul>,
      { wrapper: PlayerProvider },
    );
    expect(screen.getByTestId("callback-refused").textContent).toBe(
      "Callbacks for this account are being refused: the secret does not match. Progress is followed by polling meanwhile. Fix the secret in Settings.",
    );
  });

  it("gives the diagnosed cause, in Chinese", async () => {
    await useLocale("zh_CN");
    render(
      <ul>
        <TrackRow
          task={task({ status: "in_progress", webhook_expected: true })}
          now={NOW}
          refusal={refusal({ causes: ["FORMER_SECRET_MATCHES"] })}
        />
      </ul>,
      { wrapper: PlayerProvider },
    );
    expect(screen.getByTestId("callback-refused").textContent).toContain(
      "该账户的回调正被拒收：平台仍在用你之前的密钥签名",
    );
  });
});

describe("a row's controls name the track they act on", () => {
  const finished = (id: string, prompt: string): Task =>
    task({
      id,
      status: "success",
      params: { prompt },
      file_url: `http://127.0.0.1:4010/files/${id}.wav`,
      file_expires_at: "2025-01-02T10:00:00.000Z",
      finished_at: "2025-01-01T10:02:00.000Z",
      ...archivedFields(),
    });
  const card = (id: string) => {
    const item = document.querySelector<HTMLElement>(`li[data-task-id="${id}"]`);
    if (!item) throw new Error(`no card ${id}`);
    return item;
  };
  const showBoth = () =>
    render(
      <ul>
        <TrackRow task={finished("a", "lofi piano")} now={NOW} />
        <TrackRow task={finished("b", "night drive")} now={NOW} />
      </ul>,
      { wrapper: PlayerProvider },
    );

  it("puts the title in every control's name, so two rows' controls differ", () => {
    showBoth();
    for (const [id, title] of [
      ["a", "lofi piano"],
      ["b", "night drive"],
    ] as const) {
      const controls = within(card(id)).getAllByRole("button");
      // Play, favourite, and the menu of everything else: one row, three controls.
      expect(controls).toHaveLength(3);
      for (const control of controls) expect(control.getAttribute("aria-label")).toContain(title);
    }
  });

  it("starts each name with what the control does, then the title", () => {
    showBoth();
    const b = within(card("b"));
    for (const name of ["Play: night drive", "Favourite: night drive", "More actions: night drive"])
      expect(b.getByRole("button", { name })).toBeTruthy();
  });

  it("names the menu's items after what they do, the title being in the menu's own name", () => {
    showBoth();
    fireEvent.click(within(card("b")).getByRole("button", { name: "More actions: night drive" }));
    const menu = screen.getByRole("menu", { name: "More actions: night drive" });
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Download WAV",
      "Download MP3",
      "Share…",
      "Rename",
      "Details",
      "Use these settings",
      "Regenerate",
      "Delete…",
    ]);
  });

  it("offers no Copy link: a share link is the one link a person is given", () => {
    showBoth();
    fireEvent.click(within(card("a")).getByRole("button", { name: /^More actions/ }));
    expect(screen.queryByRole("menuitem", { name: /copy/i })).toBeNull();
    expect(within(card("a")).queryByRole("button", { name: /copy/i })).toBeNull();
  });

  it("names the renamed title, not the prompt", () => {
    show({ ...finished("a", "lofi piano"), title: "Rainy morning" });
    expect(screen.getByRole("button", { name: "More actions: Rainy morning" })).toBeTruthy();
  });

  it("names a running task's Cancel after its track", () => {
    show(task({ status: "waiting", params: { prompt: "night drive" } }));
    expect(screen.getByRole("button", { name: "Cancel: night drive" }).textContent).toBe("Cancel");
  });

  it("names the controls in Chinese", async () => {
    await useLocale("zh_CN");
    showBoth();
    const b = within(card("b"));
    expect(b.getByRole("button", { name: "播放：night drive" })).toBeTruthy();
    expect(b.getByRole("button", { name: "更多操作：night drive" })).toBeTruthy();
  });
});

describe("a finished track's line says what it is, not when it took", () => {
  const finished = (overrides: Partial<Task> = {}) =>
    task({ status: "success", finished_at: "2025-01-01T10:02:00.000Z", ...overrides });
  const lineOf = () => screen.getByTestId("track-line").textContent;

  it("says an instrumental is one, and when it was made", () => {
    show(finished());
    expect(lineOf()).toMatch(/^Instrumental · \d{1,2}:\d{2}/);
  });

  it("gives the first sung line of a song, without its section tags", () => {
    show(finished({ params: { prompt: "lofi piano", lyrics: "[verse]\n\nla la land\n[chorus]" } }));
    expect(lineOf()).toMatch(/^♪ la la land · /);
  });

  it("gives the style once the track was renamed (the title no longer says it)", () => {
    show(finished({ title: "Rainy morning" }));
    expect(lineOf()).toMatch(/^lofi piano · /);
  });

  it("tells a second take of the same song apart, and gives its seed when one was set", () => {
    render(
      <ul>
        <TrackRow
          task={finished({ params: { prompt: "lofi piano", seeds: [42] } })}
          now={NOW}
          take={{ take: 2, of: 2 }}
        />
      </ul>,
      { wrapper: PlayerProvider },
    );
    expect(lineOf()).toMatch(/^Instrumental · take 2 · .+ · seed 42$/);
  });

  it("says nothing of takes for a song made once", () => {
    render(
      <ul>
        <TrackRow task={finished()} now={NOW} take={{ take: 1, of: 1 }} />
      </ul>,
      { wrapper: PlayerProvider },
    );
    expect(lineOf()).not.toContain("take");
  });

  it("shows the track's length, from the platform's report before the waveform is read", () => {
    show(
      finished({
        usage_info: { unit: "seconds", quantity: 95 },
        params: { prompt: "x", duration: 60 },
      }),
    );
    expect(screen.getByTestId("length").textContent).toBe("1:35");
  });
});
