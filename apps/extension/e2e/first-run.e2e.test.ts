// The store build in Chromium: no fixed id, first-run setup with this browser's real values,
// then the options' language and theme followed by an open popup, and the privacy page.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type ExtensionBrowser, launchExtension } from "./support/browser.ts";
import { EXTENSION_ID, quietly } from "./support/stack.ts";
import { describeInChromium } from "./support/suite.ts";

const ROOT = resolve(import.meta.dirname, "..");
const STORE_BUILD = resolve(ROOT, ".output/chrome-mv3-store");

describeInChromium("the store build in Chromium: first run, language and theme", (chromium) => {
  let browser: ExtensionBrowser;
  let popup: Page;

  beforeAll(async () => {
    await promisify(execFile)(
      resolve(ROOT, "node_modules/.bin/wxt"),
      ["build", "--mode", "store"],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production" },
      },
    );
    browser = await launchExtension(chromium, "en-US", STORE_BUILD);
    popup = await browser.open("popup.html");
  });

  afterAll(async () => {
    await quietly(() => browser.close());
  });

  it("has its own id, not the development one", () => {
    expect(browser.extensionId).toMatch(/^[a-p]{32}$/);
    expect(browser.extensionId).not.toBe(EXTENSION_ID);
  });

  it("asks for the backend's address and shows what the backend must allow for this browser", async () => {
    await popup.locator('[data-screen="setup"]').waitFor();
    expect(await popup.locator("#setup-url").inputValue()).toBe("");
    expect(await popup.getByTestId("allow-redirect").textContent()).toBe(
      `https://${browser.extensionId}.chromiumapp.org/`,
    );
    expect(await popup.getByTestId("allow-origin").textContent()).toBe(
      `chrome-extension://${browser.extensionId}`,
    );
    await browser.shoot(popup, "first-run");
  });

  it("refuses an address that is not http(s) before asking for any permission", async () => {
    await popup.locator("#setup-url").fill("ftp://overture.example");
    await popup.locator('[data-screen="setup"] form button[type="submit"]').click();
    expect(await popup.getByRole("alert").textContent()).toBe(
      "Enter an address that starts with http:// or https://.",
    );
  });

  it("follows the theme chosen in the options at once, and the language after a reload", async () => {
    const options = await browser.open("options.html");
    await options.locator("#theme").selectOption("dark");
    await expect
      .poll(() => popup.evaluate(() => document.documentElement.dataset.theme))
      .toBe("dark");
    const background = await popup.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(21, 20, 27)");
    await options.locator("#language").selectOption("zh_CN");
    await expect
      .poll(() => popup.locator("#setup-title").textContent(), { timeout: 10_000 })
      .toBe("将 Overture 连接到你的后端");
    expect(await popup.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
    await expect.poll(() => options.locator("#preferences-title").textContent()).toBe("语言和主题");
    await browser.shoot(options, "settings-preferences");
    await options.close();
  });

  it("shows the privacy policy, linked from the options", async () => {
    const options = await browser.open("options.html");
    const href = await options.getByTestId("privacy-link").getAttribute("href");
    expect(href).toBe("/privacy.html");
    const page = await browser.open("privacy.html");
    expect(await page.locator("h1").textContent()).toBe("Overture 隐私政策");
    await page.close();
    await options.close();
  });
});
