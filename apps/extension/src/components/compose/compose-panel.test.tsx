import {
  MUSIC_DEFAULTS,
  MUSIC_FIELDS,
  MUSIC_LYRICS_MAX_LENGTH,
  MUSIC_PROMPT_MAX_LENGTH,
} from "@overture/core/music";
import { cleanup, fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { composeDraftItem } from "../../lib/shared/storage.ts";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, snapshot, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { ComposePanel } from "./compose-panel.tsx";

const noop = () => undefined;
/** A backend that refuses a submit for `field`, as the real one does (400 with `fields`). */
const refusing = (field: { field: string; code: string; min: number; max: number }) =>
  fakeBackend({
    "POST /api/tasks": () =>
      json({ error: "invalid_parameters", message: "x", fields: [field] }, 400),
  });
const withToken = snapshot({
  selection: { namespace: "demo", token_id: 1, token_name: "Studio (paid)" },
});

async function renderForm(state = withToken) {
  render(<ComposePanel snapshot={state} onSubmitted={noop} onAccount={noop} />);
  return screen.findByRole<HTMLFormElement>("form");
}

const field = (name: string) => document.getElementById(`field-${name}`) as HTMLInputElement;
const messageOf = (name: string) => document.getElementById(`field-${name}-error`)?.textContent;
const type = (name: string, value: string) => {
  fireEvent.input(field(name), { target: { value } });
  fireEvent.blur(field(name));
};

describe("compose form: validation messages from core, by error code", () => {
  it("shows the duration range in English", async () => {
    await renderForm();
    type("duration", "500");
    expect(messageOf("duration")).toBe("Enter a value from 30 to 240.");
    expect(field("duration").getAttribute("aria-invalid")).toBe("true");
  });

  it("shows the duration range in Chinese", async () => {
    await useLocale("zh_CN");
    await renderForm();
    type("duration", "500");
    expect(messageOf("duration")).toBe("请输入 30 至 240 之间的值。");
  });

  it("asks for a whole number of inference steps in English", async () => {
    await renderForm();
    type("infer_steps", "2.5");
    expect(messageOf("infer_steps")).toBe("Enter a whole number.");
  });

  it("asks for a whole number of inference steps in Chinese", async () => {
    await useLocale("zh_CN");
    await renderForm();
    type("infer_steps", "2.5");
    expect(messageOf("infer_steps")).toBe("请输入整数。");
  });

  it("requires the prompt once a submit is attempted, and does not submit", async () => {
    const backend = fakeBackend();
    startTestBackground(backend);
    const form = await renderForm();
    fireEvent.submit(form);
    expect(messageOf("prompt")).toBe("This field is required.");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Fix the highlighted fields first: Style prompt.",
    );
    expect(backend.calls("POST", "/api/tasks")).toHaveLength(0);
  });

  it("requires the prompt in Chinese", async () => {
    await useLocale("zh_CN");
    const form = await renderForm();
    fireEvent.submit(form);
    expect(messageOf("prompt")).toBe("此项为必填项。");
  });

  it("shows no message for a field the person has not touched yet", async () => {
    await renderForm();
    expect(messageOf("prompt")).toBeUndefined();
  });

  it("shows the backend's refused fields after a submit", async () => {
    await signedIn();
    startTestBackground(refusing({ field: "omega_scale", code: "range", min: -100, max: 100 }));
    const form = await renderForm();
    type("prompt", "lofi");
    fireEvent.submit(form);
    await screen.findByText("Some parameters were refused. See the highlighted fields.");
    expect(messageOf("omega_scale")).toBe("Enter a value from -100 to 100.");
  });
});

describe("compose form: a connection failure's banner goes once the backend is back", () => {
  /** A snapshot written later, while online (a refresh that reached the backend). */
  const healthyLater = snapshot({ ...withToken, connectivity: "online", updatedAt: 99 });

  it("clears a backend-unreachable banner when a later snapshot is online", async () => {
    await signedIn();
    const backend = fakeBackend();
    backend.down();
    startTestBackground(backend);
    const { rerender } = render(
      <ComposePanel snapshot={withToken} onSubmitted={noop} onAccount={noop} />,
    );
    const form = await screen.findByRole("form");
    type("prompt", "lofi");
    fireEvent.submit(form);
    await screen.findByText("The backend could not be reached.");
    rerender(<ComposePanel snapshot={healthyLater} onSubmitted={noop} onAccount={noop} />);
    await expect.poll(() => screen.queryByRole("alert")).toBeNull();
  });

  it("keeps the banner of fields the backend refused, which the person still has to fix", async () => {
    await signedIn();
    startTestBackground(refusing({ field: "omega_scale", code: "range", min: -100, max: 100 }));
    const { rerender } = render(
      <ComposePanel snapshot={withToken} onSubmitted={noop} onAccount={noop} />,
    );
    const form = await screen.findByRole("form");
    type("prompt", "lofi");
    fireEvent.submit(form);
    await screen.findByText("Some parameters were refused. See the highlighted fields.");
    rerender(<ComposePanel snapshot={healthyLater} onSubmitted={noop} onAccount={noop} />);
    expect(screen.getByRole("alert").textContent).toBe(
      "Some parameters were refused. See the highlighted fields.",
    );
  });
});

describe("compose form: a refused submit shows where the problem is", () => {
  const details = () => document.querySelector<HTMLDetailsElement>("details.advanced");

  it("opens the collapsed Advanced parameters and focuses the first invalid field", async () => {
    await composeDraftItem.setValue({
      values: { prompt: "lofi", omega_scale: "500", guidance_interval: "7" },
      preset: null,
    });
    const form = await renderForm();
    expect(details()?.open).toBe(false);
    fireEvent.submit(form);
    await expect.poll(() => document.activeElement?.id).toBe("field-omega_scale");
    expect(details()?.open).toBe(true);
    expect(messageOf("omega_scale")).toBe("Enter a value from -100 to 100.");
  });

  it("opens Advanced parameters again after the person closed it", async () => {
    const form = await renderForm();
    type("prompt", "lofi");
    type("omega_scale", "500");
    const section = details();
    if (!section) throw new Error("no Advanced section");
    section.open = false;
    fireEvent(section, new Event("toggle"));
    fireEvent.submit(form);
    await expect.poll(() => section.open).toBe(true);
    expect(document.activeElement?.id).toBe("field-omega_scale");
  });

  it("names the Advanced parameters group after its summary, in English and Chinese", async () => {
    await renderForm();
    const group = screen.getByRole("group", { name: "Advanced parameters", hidden: true });
    expect(group).toBe(details());
    cleanup();
    await useLocale("zh_CN");
    await renderForm();
    expect(screen.getByRole("group", { name: "高级参数", hidden: true })).toBe(details());
  });

  it("focuses a basic field before an advanced one", async () => {
    await composeDraftItem.setValue({ values: { omega_scale: "500" }, preset: null });
    const form = await renderForm();
    fireEvent.submit(form);
    await expect.poll(() => document.activeElement?.id).toBe("field-prompt");
  });

  it("names the fields to fix, in English and Chinese", async () => {
    await composeDraftItem.setValue({
      values: { prompt: "lofi", omega_scale: "500" },
      preset: null,
    });
    fireEvent.submit(await renderForm());
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Fix the highlighted fields first: Omega scale.",
    );
    cleanup();
    await useLocale("zh_CN");
    fireEvent.submit(await renderForm());
    expect((await screen.findByRole("alert")).textContent).toBe("请先修正标出的字段：Omega 系数。");
  });

  it("opens Advanced parameters for a field the backend refused", async () => {
    await signedIn();
    startTestBackground(refusing({ field: "min_guidance_scale", code: "range", min: 0, max: 200 }));
    const form = await renderForm();
    type("prompt", "lofi");
    fireEvent.submit(form);
    await expect.poll(() => document.activeElement?.id).toBe("field-min_guidance_scale");
    expect(details()?.open).toBe(true);
  });
});

describe("compose form: text the backend cannot store", () => {
  it("says a NUL character in the prompt must go, and sends nothing", async () => {
    await signedIn();
    const backend = fakeBackend();
    startTestBackground(backend);
    const form = await renderForm();
    type("prompt", "lofi\u0000 piano");
    expect(messageOf("prompt")).toBe(
      "Remove the invisible control character or broken emoji in this text.",
    );
    fireEvent.submit(form);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Fix the highlighted fields first: Style prompt.",
    );
    expect(backend.calls("POST", "/api/tasks")).toHaveLength(0);
  });

  it("says a broken emoji half in the lyrics must go, in Chinese", async () => {
    await useLocale("zh_CN");
    await renderForm();
    type("lyrics", "la \ud83c la");
    expect(messageOf("lyrics")).toBe("请删除文本中不可见的控制字符或残缺的表情符号。");
  });
});

describe("compose form: prompt and lyrics length", () => {
  const counter = (name: string) => document.getElementById(`field-${name}-count`);
  const grouped = (n: number) => n.toLocaleString("en-US");

  it("never cuts a long paste: the boxes have no maxlength", async () => {
    await renderForm();
    expect(field("prompt").hasAttribute("maxlength")).toBe(false);
    expect(field("lyrics").hasAttribute("maxlength")).toBe(false);
  });

  it("counts the prompt in code points against core's limit", async () => {
    await renderForm();
    type("prompt", "🎵 lofi");
    expect(counter("prompt")?.textContent).toBe(`6 / ${grouped(MUSIC_PROMPT_MAX_LENGTH)}`);
    expect(counter("prompt")?.dataset.over).toBeUndefined();
  });

  it("counts the lyrics against core's limit", async () => {
    await renderForm();
    type("lyrics", "[verse]\nla");
    expect(counter("lyrics")?.textContent).toBe(`10 / ${grouped(MUSIC_LYRICS_MAX_LENGTH)}`);
  });

  it("keeps an over-long paste whole, says how far over, and refuses to submit", async () => {
    await signedIn();
    const backend = fakeBackend();
    startTestBackground(backend);
    const form = await renderForm();
    const long = "a".repeat(MUSIC_PROMPT_MAX_LENGTH + 5);
    type("prompt", long);
    expect(field("prompt").value).toBe(long);
    expect(counter("prompt")?.textContent).toBe(
      `${grouped(MUSIC_PROMPT_MAX_LENGTH + 5)} / ${grouped(MUSIC_PROMPT_MAX_LENGTH)} · 5 too many`,
    );
    expect(counter("prompt")?.dataset.over).toBe("true");
    expect(field("prompt").getAttribute("aria-invalid")).toBe("true");
    fireEvent.submit(form);
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Fix the highlighted fields first: Style prompt.",
    );
    expect(backend.calls("POST", "/api/tasks")).toHaveLength(0);
  });

  it("says how far over in Chinese", async () => {
    await useLocale("zh_CN");
    await renderForm();
    type("lyrics", "词".repeat(MUSIC_LYRICS_MAX_LENGTH + 2));
    expect(counter("lyrics")?.textContent).toBe(
      `${grouped(MUSIC_LYRICS_MAX_LENGTH + 2)} / ${grouped(MUSIC_LYRICS_MAX_LENGTH)} · 超出 2 个字符`,
    );
  });

  it("sends line breaks as LF, whatever the paste carried", async () => {
    await signedIn();
    const backend = fakeBackend({ "POST /api/tasks": () => json(task({ status: "queued" }), 201) });
    startTestBackground(backend);
    const form = await renderForm();
    type("prompt", "lofi");
    type("lyrics", "[verse]\r\nline one\rline two\n");
    fireEvent.submit(form);
    await expect.poll(() => backend.calls("POST", "/api/tasks").length).toBe(1);
    const body = (await backend.calls("POST", "/api/tasks")[0]?.json()) as { lyrics: string };
    expect(body.lyrics).toBe("[verse]\nline one\nline two\n");
  });

  it("counts a CRLF line break as one character", async () => {
    await renderForm();
    type("lyrics", "a\r\nb");
    expect(counter("lyrics")?.textContent).toBe(`3 / ${grouped(MUSIC_LYRICS_MAX_LENGTH)}`);
  });
});

describe("compose form: fields, tags, presets and memory", () => {
  it("offers every parameter of spec 4.6 at its documented default", async () => {
    await renderForm();
    for (const [name, spec] of Object.entries(MUSIC_FIELDS)) {
      const control = field(name);
      const value = control.type === "checkbox" ? control.checked : control.value;
      expect(String(value), name).toBe(String(spec.default));
    }
  });

  it("starts the seeds box empty, not with the word undefined", async () => {
    await renderForm();
    expect(field("seeds").value).toBe("");
  });

  it("empties the seeds box again on Reset to defaults and on a preset", async () => {
    await renderForm();
    type("seeds", "7, 8");
    fireEvent.click(screen.getByRole("button", { name: "Reset to defaults" }));
    expect(field("seeds").value).toBe("");
    type("seeds", "7, 8");
    fireEvent.click(screen.getByRole("button", { name: "Lo-fi" }));
    expect(field("seeds").value).toBe("");
  });

  it("shows the range of each numeric field", async () => {
    await renderForm();
    expect(document.getElementById("field-guidance_interval-hint")?.textContent).toBe("0 to 1");
  });

  it("lists the section tags found in the lyrics, in order", async () => {
    await renderForm();
    type("lyrics", "[verse]\nhello\n[chorus]\nla la\n[verse]\nagain");
    expect(screen.getByTestId("lyric-tags").textContent).toBe("versechorusverse");
  });

  it("sets the Chinese rap LoRA with the Chinese rap preset", async () => {
    await renderForm();
    fireEvent.click(screen.getByRole("button", { name: "Chinese rap" }));
    expect(field("lora_name").value).toBe("ACE-Step-v1-chinese-rap-LoRA");
    expect(screen.getByRole("button", { name: "Chinese rap" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
  });

  it("remembers the last settings", async () => {
    await renderForm();
    type("prompt", "ambient drone");
    await expect
      .poll(async () => (await composeDraftItem.getValue()).values.prompt)
      .toBe("ambient drone");
  });

  it("starts from the remembered settings", async () => {
    await composeDraftItem.setValue({
      values: { prompt: "remembered", duration: 120 },
      preset: null,
    });
    await renderForm();
    expect(field("prompt").value).toBe("remembered");
    expect(field("duration").value).toBe("120");
  });

  it("submits the values and reports success to the caller", async () => {
    await signedIn();
    const backend = fakeBackend({ "POST /api/tasks": () => json(task({ status: "queued" }), 201) });
    startTestBackground(backend);
    let submitted = false;
    render(
      <ComposePanel snapshot={withToken} onSubmitted={() => (submitted = true)} onAccount={noop} />,
    );
    await screen.findByRole("form");
    type("prompt", "lofi");
    fireEvent.submit(screen.getByRole("form"));
    await expect.poll(() => submitted).toBe(true);
    expect(await backend.calls("POST", "/api/tasks")[0]?.json()).toMatchObject({
      ...MUSIC_DEFAULTS,
      prompt: "lofi",
    });
  });

  it("disables Generate and says why when no access token is chosen", async () => {
    await renderForm(snapshot({ selection: null }));
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Generate" }).disabled).toBe(true);
    expect(screen.getByText("Choose an access token in Account first.")).toBeTruthy();
  });
});
