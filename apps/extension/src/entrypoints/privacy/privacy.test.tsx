import { render, screen } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { setMessages } from "../../lib/shared/i18n.ts";
import { renderMarkdown } from "../../lib/views/markdown.tsx";
import { applyLanguage } from "../../lib/shared/preferences.ts";
import { REDIRECT, startTestBackground } from "../../testing/background.ts";
import { fakeBackend } from "../../testing/fixtures.ts";
import { loadLocale } from "../../testing/locales.ts";
import { OptionsApp } from "../options/app.tsx";
import { PrivacyPage } from "./app.tsx";

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

beforeEach(() => {
  fakeBrowser.identity.getRedirectURL = () => REDIRECT;
});

afterEach(() => {
  setMessages(null);
});

describe("the privacy page", () => {
  it("is linked from the options", async () => {
    startTestBackground(fakeBackend());
    render(<OptionsApp />);
    const link = await screen.findByTestId("privacy-link");
    expect(link.getAttribute("href")).toBe("/privacy.html");
    expect(link.textContent).toBe("What Overture stores, what it sends, and to whom");
  });

  it("shows the repository's policy, in English", () => {
    render(<PrivacyPage />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Overture privacy policy");
    expect(screen.getByRole("heading", { name: "What reaches your backend" })).toBeTruthy();
    expect(document.body.textContent).toContain("nothing to third parties");
  });

  it("and in Chinese", async () => {
    serveLocales();
    await applyLanguage("zh_CN");
    render(<PrivacyPage />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Overture 隐私政策");
  });

  it("renders Markdown as elements, never as HTML", () => {
    render(
      <div data-testid="md">
        {renderMarkdown(
          "# Title\n\nSome `code`, **bold** and [a link](https://example.org).\n\n- one\n- two <b>x</b>\n",
        )}
      </div>,
    );
    const md = screen.getByTestId("md");
    expect(md.querySelector("h1")?.textContent).toBe("Title");
    expect(md.querySelector("code")?.textContent).toBe("code");
    expect(md.querySelector("strong")?.textContent).toBe("bold");
    expect(md.querySelector("a")?.getAttribute("href")).toBe("https://example.org");
    expect([...md.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "one",
      "two <b>x</b>",
    ]);
    expect(md.querySelector("b")).toBeNull();
  });
});
