// Every screen as a person sees it, in English and Chinese, light and dark: each is checked for
// text cut off or pushed past the edge and by axe-core, and photographed. `pnpm screens` writes
// the pictures into docs/screens/ (a reviewer sees the product without building it); a test run
// writes them into test-results/screens/.
import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ExtensionBrowser, launchExtension } from "./support/browser.ts";
import { QUICK_TIMING, signedInPopup } from "./support/library.ts";
import { axeViolations, findLayoutProblems } from "./support/screens.ts";
import { makeLibrary, setPreferences } from "./support/screen-library.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";
import { describeInChromium } from "./support/suite.ts";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(ROOT, process.env.OVERTURE_SCREENS_DIR ?? "test-results/screens");
const STORE_BUILD = resolve(ROOT, ".output/chrome-mv3-store");
const LANGUAGES = ["en", "zh_CN"] as const;
const THEMES = ["light", "dark"] as const;
type Language = (typeof LANGUAGES)[number];
type Theme = (typeof THEMES)[number];

describeInChromium("every screen, in both languages and themes", (chromiumPath) => {
  let stack: Stack;
  let browser: ExtensionBrowser;
  let store: ExtensionBrowser;
  let tracks: string[] = [];
  const found: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ timing: QUICK_TIMING, maxAudioSeconds: 30 });
    browser = await launchExtension(chromiumPath, "en-US", undefined, { bypassCSP: true });
    await promisify(execFile)(
      resolve(ROOT, "node_modules/.bin/wxt"),
      ["build", "--mode", "store"],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production" },
      },
    );
    store = await launchExtension(chromiumPath, "en-US", STORE_BUILD, { bypassCSP: true });
  });

  afterAll(async () => {
    await quietly(() => store.close());
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  /**
   * Checks the page as it is now and photographs it as `<language>-<theme>/<name>.png`; the
   * settings page whole (it is a tab taller than the window: the popup's screens are the window).
   */
  async function capture(page: Page, language: Language, theme: Theme, name: string) {
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(250);
    const label = `${language}-${theme}/${name}`;
    for (const problem of await findLayoutProblems(page))
      found.push(`${label}: ${problem.kind} ${problem.where} “${problem.text}”`);
    for (const violation of await axeViolations(page))
      found.push(
        `${label}: axe ${violation.id} (${violation.impact ?? "?"}) ${violation.targets.join(", ")}`,
      );
    const dir = join(OUT, `${language}-${theme}`);
    await mkdir(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: name === "settings" });
  }

  it("signs in and makes a library of finished tracks", async () => {
    const popup = await signedInPopup(browser, stack);
    await popup.close();
    tracks = await makeLibrary(browser, stack);
    expect(tracks.length).toBeGreaterThanOrEqual(8);
  });

  for (const language of LANGUAGES)
    for (const theme of THEMES)
      it(`shows every screen in ${language}, ${theme}`, async () => {
        await setPreferences(browser, { language, theme });
        const popup = await browser.open("popup.html");
        await popup.locator("li.task").first().waitFor();
        await popup.locator(".updating:not([data-active])").waitFor();
        await capture(popup, language, theme, "library");

        const first = popup.locator("li.task").first();
        await first.getByTestId("more").click();
        await popup.locator('[role="menu"]').waitFor();
        await capture(popup, language, theme, "menu");
        await popup.keyboard.press("Escape");

        await first.getByTestId("more").click();
        await popup.locator('[role="menuitem"][data-item="details"]').click();
        await popup.locator('[data-testid="task-details"] dl').first().waitFor();
        await popup.locator("details.engine summary").click();
        await capture(popup, language, theme, "details");
        await popup.keyboard.press("Escape");

        await first.getByTestId("more").click();
        await popup.locator('[role="menuitem"][data-item="share"]').click();
        const share = popup.getByTestId("share-panel");
        await share.getByTestId("create-share").click();
        await share.getByTestId("share-url").waitFor();
        await capture(popup, language, theme, "share");
        await popup.keyboard.press("Escape");

        await first.getByTestId("play").click();
        await popup
          .locator('.mini-player[data-state="ready"] canvas[data-state="drawn"]')
          .waitFor();
        await popup.waitForTimeout(1_200);
        await popup.getByTestId("player-toggle").click();
        await capture(popup, language, theme, "player");
        await popup.getByTestId("player-toggle").click();

        await popup.locator("#tab-compose").click();
        await popup.locator("form").waitFor();
        await capture(popup, language, theme, "compose");
        await popup.locator("#tab-account").click();
        await popup.getByTestId("selection").waitFor();
        await capture(popup, language, theme, "account");
        await popup.close();

        const panel = await browser.open("sidepanel.html");
        await panel.locator('li.task canvas[data-state="drawn"]').first().waitFor();
        await capture(panel, language, theme, "side-panel");
        await panel.close();

        const options = await browser.open("options.html");
        await options.locator('[data-testid="webhook-status"]').waitFor();
        await capture(options, language, theme, "settings");
        await options.close();

        await setPreferences(store, { language, theme });
        const setup = await store.open("popup.html");
        await setup.locator('[data-screen="setup"]').waitFor();
        await capture(setup, language, theme, "first-run");
        await setup.close();
      });

  it("finds nothing cut off, nothing past the edge, and nothing axe-core reports", () => {
    expect(found).toEqual([]);
  });
});
