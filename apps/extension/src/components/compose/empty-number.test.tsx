import { MUSIC_FIELDS } from "@overture/core/music";
import { fireEvent, render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { signedIn, startTestBackground } from "../../testing/background.ts";
import { fakeBackend, json, snapshot, task } from "../../testing/fixtures.ts";
import { useLocale } from "../../testing/setup.ts";
import { ComposePanel } from "./compose-panel.tsx";

const noop = () => undefined;
const withToken = snapshot({
  selection: { namespace: "demo", token_id: 1, token_name: "Studio (paid)" },
});
const box = (name: string) => document.getElementById(`field-${name}`) as HTMLInputElement;
const hintOf = (name: string) => document.getElementById(`field-${name}-hint`)?.textContent;
const type = (name: string, value: string) => {
  fireEvent.input(box(name), { target: { value } });
  fireEvent.blur(box(name));
};

async function form() {
  await signedIn();
  const backend = fakeBackend({ "POST /api/tasks": () => json(task({ status: "queued" }), 201) });
  startTestBackground(backend);
  render(<ComposePanel snapshot={withToken} onSubmitted={noop} onAccount={noop} />);
  await screen.findByRole("form");
  return backend;
}

describe("compose form: an emptied number box", () => {
  it("shows the default duration as its placeholder and says it will be used", async () => {
    await form();
    expect(box("duration").placeholder).toBe(String(MUSIC_FIELDS.duration.default));
    expect(hintOf("duration")).toBe("30 to 240");
    type("duration", "");
    expect(hintOf("duration")).toBe("Empty: the default (60 seconds) will be used. · 30 to 240");
    expect(box("duration").getAttribute("aria-describedby")).toContain("field-duration-hint");
    expect(box("duration").getAttribute("aria-invalid")).toBeNull();
  });

  it("sends the default duration the hint announced, not an empty value", async () => {
    const backend = await form();
    type("prompt", "lofi");
    type("duration", "");
    fireEvent.submit(screen.getByRole("form"));
    await expect.poll(() => backend.calls("POST", "/api/tasks").length).toBe(1);
    const body = (await backend.calls("POST", "/api/tasks")[0]?.json()) as { duration: unknown };
    expect(body.duration).toBe(60);
  });

  it("says which default an advanced box stands for, in Chinese", async () => {
    await useLocale("zh_CN");
    await form();
    type("infer_steps", " ");
    expect(box("infer_steps").placeholder).toBe("60");
    expect(hintOf("infer_steps")).toBe("留空时将使用默认值（60）。 · 1 至 60");
  });
});
