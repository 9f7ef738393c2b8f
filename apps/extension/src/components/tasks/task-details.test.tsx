import { cleanup, fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { composeDraftItem, snapshotItem } from "../../lib/shared/storage.ts";
import type { Task } from "../../lib/shared/types.ts";
import { PlayerProvider } from "../player/player-context.tsx";
import { TrackRow } from "./track-row.tsx";

const NOW = Date.parse("2025-01-01T10:03:05.000Z");
const done = task({
  status: "success",
  finished_at: "2025-01-01T10:02:00.000Z",
  params: {
    prompt: "lofi piano",
    lyrics: "[verse]\nla la",
    duration: 30,
    infer_steps: 60,
    use_erg_tag: true,
    omega_scale: 10,
    lora_name: "",
  },
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
      <TrackRow task={done} now={NOW} onCompose={() => composed.push("compose")} />
    </ul>,
    { wrapper: PlayerProvider },
  );
  choose("Details");
  return { backend, composed };
}

const text = () => screen.getByTestId("task-details").textContent;

/** Opens the row's "⋯" menu and chooses `item`. */
function choose(item: string, more = "More actions: lofi piano") {
  fireEvent.click(screen.getByRole("button", { name: more }));
  fireEvent.click(screen.getByRole("menuitem", { name: item }));
}

/** The rows of one group of the details: each label with its value. */
const rowsOf = (heading: string): [string, string][] => {
  const section = screen.getByRole("heading", { name: heading }).closest("section, details");
  return [...(section?.querySelectorAll("dl > div") ?? [])].map((row) => [
    row.querySelector("dt")?.textContent ?? "",
    row.querySelector("dd")?.textContent ?? "",
  ]);
};
const groupOf = (heading: string): Record<string, string> => Object.fromEntries(rowsOf(heading));

/** Opens the details of a track made with `params`, in `locale`: the value of the engine's `label` row. */
async function engineRow(locale: "en" | "zh_CN", params: Task["params"], label: string) {
  cleanup();
  await useLocale(locale);
  await signedIn({ tasks: [done] });
  startTestBackground(fakeBackend({ "GET /api/tasks/t1/details": () => json(DETAILS) }));
  render(
    <ul>
      <TrackRow task={{ ...done, params }} now={NOW} />
    </ul>,
    { wrapper: PlayerProvider },
  );
  if (locale === "en") choose("Details");
  else choose("详情", "更多操作：lofi piano");
  const engine = await screen.findByText(locale === "en" ? "Engine settings" : "引擎设置");
  const row = [...(engine.closest("details")?.querySelectorAll("dl > div") ?? [])].find(
    (div) => div.querySelector("dt")?.textContent === label,
  );
  return row?.querySelector("dd")?.textContent;
}

describe("a task's details", () => {
  it("tells the track in a person's words first: style, lyrics, length", async () => {
    await signedIn({ tasks: [done] });
    open();
    await screen.findByRole("heading", { name: "The track" });
    expect(rowsOf("The track")).toEqual([
      ["Style", "lofi piano"],
      ["Lyrics", "[verse]\nla la"],
      ["Length", "0:29 (0:30 asked for)"],
    ]);
  });

  it("tells how it was made: when, how long it took, what it cost", async () => {
    await signedIn({ tasks: [done] });
    open();
    await screen.findByRole("heading", { name: "How it was made" });
    const made = groupOf("How it was made");
    expect(made.Took).toBe("1:59 generating · 0:01 waiting · 2:00 in all");
    expect(made.Cost).toBe("0.2 CNY");
    expect(made.Made).toMatch(/2025/);
    expect(made.Seeds).toBeUndefined();
  });

  it("folds the engine's settings away, under the compose form's labels, with the platform's id", async () => {
    await signedIn({ tasks: [done] });
    open();
    const engine = await screen.findByText("Engine settings");
    expect(engine.closest("details")?.open).toBe(false);
    const rows: Record<string, string> = Object.fromEntries(
      [...(engine.closest("details")?.querySelectorAll("dl > div") ?? [])].map((row) => [
        row.querySelector("dt")?.textContent ?? "",
        row.querySelector("dd")?.textContent ?? "",
      ]),
    );
    expect(rows).toEqual({
      "Inference steps": "60",
      "ERG on tags": "On",
      "Omega scale": "10",
      LoRA: "None",
      "Platform task id": "p1",
    });
    // No raw names of the request are shown anywhere.
    expect(text()).not.toMatch(/use_erg_tag|omega_scale|infer_steps/);
  });

  it("names the LoRA in words, not by the engine's file name, in English and in Chinese", async () => {
    const lora = (lora_name: string) => ({ ...done.params, lora_name });
    expect(await engineRow("en", lora("ACE-Step-v1-chinese-rap-LoRA"), "LoRA")).toBe("Chinese rap");
    expect(await engineRow("zh_CN", lora("ACE-Step-v1-chinese-rap-LoRA"), "LoRA")).toBe("中文说唱");
    expect(text()).not.toMatch(/ACE-Step/);
    expect(await engineRow("en", lora("None"), "LoRA")).toBe("None");
    expect(await engineRow("zh_CN", lora(""), "LoRA")).toBe("无");
  });

  it("says the task type in words, in English and in Chinese", async () => {
    const typed = { ...done.params, task: "text2music" };
    expect(await engineRow("en", typed, "Task type")).toBe("Text to music");
    expect(await engineRow("zh_CN", typed, "任务类型")).toBe("文本生成音乐");
  });

  it("says what the platform did not report, in Chinese", async () => {
    await useLocale("zh_CN");
    await signedIn({ tasks: [done] });
    const unknown = { ...DETAILS, actual_duration_seconds: null, price: null, currency: null };
    const backend = fakeBackend({ "GET /api/tasks/t1/details": () => json(unknown) });
    startTestBackground(backend);
    render(
      <ul>
        <TrackRow task={done} now={NOW} />
      </ul>,
      { wrapper: PlayerProvider },
    );
    choose("详情", "更多操作：lofi piano");
    await screen.findByRole("heading", { name: "生成信息" });
    expect(groupOf("曲目").时长).toBe("未知（请求 0:30）");
    expect(groupOf("生成信息").费用).toBe("平台未报告");
    expect(screen.getByText("引擎设置")).toBeTruthy();
  });

  it("names which take of the song it is, and its seeds when they were set", async () => {
    await signedIn({ tasks: [done] });
    const seeded = { ...done, params: { ...done.params, seeds: [42, 7] } };
    startTestBackground(fakeBackend({ "GET /api/tasks/t1/details": () => json(DETAILS) }));
    render(
      <ul>
        <TrackRow task={seeded} now={NOW} take={{ take: 2, of: 3 }} />
      </ul>,
      { wrapper: PlayerProvider },
    );
    choose("Details");
    await screen.findByRole("heading", { name: "How it was made" });
    const made = groupOf("How it was made");
    expect(made.Take).toBe("Take 2 of 3 of this song");
    expect(made.Seeds).toBe("42, 7");
  });

  it("fills the compose form's draft with the task's settings and asks to show it", async () => {
    await signedIn({ tasks: [done] });
    await composeDraftItem.setValue({ values: { prompt: "old", seed: 5 }, preset: "chill" });
    const { composed } = open();
    fireEvent.click(screen.getByRole("button", { name: "Use these settings" }));
    await expect.poll(() => composed).toEqual(["compose"]);
    expect(await composeDraftItem.getValue()).toEqual({
      values: {
        prompt: "lofi piano",
        lyrics: "[verse]\nla la",
        duration: 30,
        infer_steps: 60,
        use_erg_tag: true,
        omega_scale: 10,
        lora_name: "",
      },
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
    await expect.poll(() => screen.queryByRole("dialog")).toBeNull();
    expect(backend.calls("POST", "/api/tasks/t1/regenerate")).toHaveLength(1);
    expect((await snapshotItem.getValue()).tasks.map((t) => t.id)).toEqual(["t2", "t1"]);
  });

  it("shows why the details could not be read", async () => {
    await signedIn({ tasks: [done] });
    open({ error: "task_not_found", message: "gone" }, {}, 404);
    await expect.poll(() => screen.queryByRole("alert")?.textContent).toBe("Not found.");
  });
});
