import { fireEvent, render, screen } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { i18n, setMessages, uiLanguage } from "../../lib/shared/i18n.ts";
import { applyPreferences } from "../../lib/views/apply-preferences.ts";
import { applyLanguage, applyTheme } from "../../lib/shared/preferences.ts";
import { preferencesItem } from "../../lib/shared/storage.ts";
import { REDIRECT, startTestBackground } from "../../testing/background.ts";
import { fakeBackend } from "../../testing/fixtures.ts";
import { loadLocale } from "../../testing/locales.ts";
import { OptionsApp } from "./app.tsx";

/** Serves the extension's own `_locales/<locale>/messages.json` as the built extension does. */
function serveLocales() {
  const fetch = vi.fn(async (url: string) => {
    const locale = /_locales\/(\w+)\/messages\.json$/.exec(url)?.[1];
    return locale === "en" || locale === "zh_CN"
      ? new Response(JSON.stringify(await loadLocale(locale)))
      : new Response("", { status: 404 });
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

beforeEach(() => {
  fakeBrowser.identity.getRedirectURL = () => REDIRECT;
});

afterEach(() => {
  setMessages(null);
  delete document.documentElement.dataset.theme;
});

describe("language and theme", () => {
  it("replace the old Appearance section in the options", async () => {
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    expect(await screen.findByRole("heading", { name: "Language and theme" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Appearance" })).toBeNull();
    const language = await screen.findByLabelText<HTMLSelectElement>("Language");
    expect([...language.options].map((o) => o.textContent)).toEqual([
      "Same as the browser",
      "English",
      "中文",
    ]);
    const theme = screen.getByLabelText<HTMLSelectElement>("Theme");
    expect([...theme.options].map((o) => o.textContent)).toEqual([
      "Same as the browser",
      "Light",
      "Dark",
    ]);
  });

  it("saves the choices, and every open view follows the theme at once", async () => {
    startTestBackground(fakeBackend());
    const reload = vi.fn();
    await applyPreferences(reload);
    render(<OptionsApp />);
    fireEvent.change(await screen.findByLabelText("Theme"), { target: { value: "dark" } });
    await expect.poll(() => document.documentElement.dataset.theme).toBe("dark");
    expect(await preferencesItem.getValue()).toEqual({ language: "auto", theme: "dark" });
    expect(reload).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Language"), { target: { value: "zh_CN" } });
    await expect.poll(() => reload.mock.calls.length).toBe(1);
    expect(await preferencesItem.getValue()).toEqual({ language: "zh_CN", theme: "dark" });
  });

  it("speaks Chinese when chosen, in a browser that is in English", async () => {
    const fetch = serveLocales();
    await applyLanguage("zh_CN");
    expect(fetch).toHaveBeenCalledWith(fakeBrowser.runtime.getURL("/_locales/zh_CN/messages.json"));
    expect(i18n.t("settings.title")).toBe((await loadLocale("zh_CN")).settings_title?.message);
    expect(i18n.t("setup.ready", { url: "https://x.example" })).toBe(
      "位于 https://x.example 的后端已就绪。",
    );
    expect(uiLanguage()).toBe("zh-CN");
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    expect(await screen.findByRole("heading", { name: "语言和主题" })).toBeTruthy();
  });

  it("speaks English when chosen, in a browser that is in Chinese", async () => {
    serveLocales();
    fakeBrowser.i18n.getMessage = () => "中文";
    await applyLanguage("en");
    expect(i18n.t("settings.preferences")).toBe("Language and theme");
    expect(uiLanguage()).toBe("en");
    await applyLanguage("auto");
    expect(i18n.t("settings.preferences")).toBe("中文");
  });

  it("keeps the browser's language when the chosen one cannot be loaded", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(new Response("", { status: 404 })));
    await preferencesItem.setValue({ language: "zh_CN", theme: "light" });
    await applyPreferences(() => undefined);
    expect(i18n.t("settings.preferences")).toBe("Language and theme");
    expect(document.documentElement.dataset.theme).toBe("light");
  });

  it("follows the browser's light or dark setting on auto", () => {
    applyTheme("light");
    applyTheme("auto");
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });
});

describe("the keyboard shortcut", () => {
  it("is shown as the browser has it", async () => {
    (fakeBrowser as unknown as { commands: unknown }).commands = {
      getAll: () => Promise.resolve([{ name: "_execute_action", shortcut: "Alt+Shift+O" }]),
    };
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    expect((await screen.findByTestId("shortcut")).textContent).toContain(
      "Keyboard shortcut to open Overture: Alt+Shift+O",
    );
  });

  it("says when none is set", async () => {
    (fakeBrowser as unknown as { commands: unknown }).commands = {
      getAll: () => Promise.resolve([{ name: "_execute_action", shortcut: "" }]),
    };
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    expect((await screen.findByTestId("shortcut")).textContent).toContain(
      "No keyboard shortcut opens Overture yet.",
    );
  });
});
