// The library from the keyboard alone, in real Chromium (layout matters here: happy-dom has
// none): what Tab focuses is never hidden under the player bar pinned to the bottom, and the
// bar's own buttons do not scroll the list; Tab stays inside an open sheet.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { type ExtensionBrowser, launchExtension } from "./support/browser.ts";
import { backendPost, QUICK_TIMING, signedInPopup } from "./support/library.ts";
import { quietly, type Stack, startStack } from "./support/stack.ts";
import { describeInChromium } from "./support/suite.ts";

const TRACKS = 5;

describeInChromium("the library from the keyboard (Chromium)", (chromiumPath) => {
  let stack: Stack;
  let browser: ExtensionBrowser;
  let popup: Page;

  beforeAll(async () => {
    stack = await startStack({ timing: QUICK_TIMING });
    browser = await launchExtension(chromiumPath, "en-US");
  });

  afterAll(async () => {
    await quietly(() => browser.close());
    await quietly(() => stack.close());
  });

  it("signs in and finishes a few tracks", async () => {
    popup = await signedInPopup(browser, stack);
    for (let i = 0; i < TRACKS; i++)
      await backendPost(browser, `${stack.backendUrl}/api/tasks`, {
        prompt: `keyboard test ${String(i)}, piano`,
        duration: 30,
      });
    await popup.locator("#tab-tasks").click();
    await expect
      .poll(() => popup.locator('li.task[data-status="success"]').count(), { timeout: 90_000 })
      .toBe(TRACKS);
  });

  it("never leaves what Tab focuses under the player bar", async () => {
    // A short window, so that rows reach under the bar with a few tracks.
    await popup.setViewportSize({ width: 400, height: 400 });
    await popup.locator("li.task").first().getByTestId("play").click();
    await popup.locator('.mini-player[data-state="ready"]').waitFor();
    await popup.locator("li.task").first().getByTestId("play").focus();
    const hidden: string[] = [];
    // Each row has three stops: play, favourite, ⋯.
    for (let stop = 1; stop < TRACKS * 3; stop++) {
      await popup.keyboard.press("Tab");
      const under = await popup.evaluate(() => {
        const focused = document.activeElement;
        const bar = document.querySelector(".mini-player");
        if (!focused || !bar || bar.contains(focused)) return null;
        const box = focused.getBoundingClientRect();
        return box.bottom > bar.getBoundingClientRect().top
          ? (focused.getAttribute("aria-label") ?? focused.tagName)
          : null;
      });
      if (under) hidden.push(under);
    }
    expect(hidden).toEqual([]);
  });

  it("leaves the list where it is when the player's own buttons are pressed", async () => {
    await popup.evaluate(() => {
      window.scrollTo(0, 0);
    });
    await popup.getByTestId("player-toggle").click();
    await popup.getByTestId("player-toggle").click();
    expect(await popup.evaluate(() => document.scrollingElement?.scrollTop)).toBe(0);
  });

  it("keeps Tab and Shift+Tab inside an open sheet, and Escape gives the focus back to ⋯", async () => {
    const first = popup.locator("li.task").first();
    await first.getByTestId("more").click();
    await popup.locator('[role="menuitem"][data-item="details"]').click();
    const sheet = popup.locator("dialog[open]");
    await sheet.waitFor();
    const inside = () =>
      popup.evaluate(() => {
        const open = document.querySelector("dialog[open]");
        return open?.contains(document.activeElement) === true;
      });
    const escaped: string[] = [];
    for (const key of ["Tab", "Shift+Tab"])
      for (let press = 0; press < 12; press++) {
        await popup.keyboard.press(key);
        if (!(await inside())) escaped.push(`${key} ${String(press + 1)}`);
      }
    expect(escaped).toEqual([]);
    await popup.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
    expect(await popup.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "more",
    );
  });
});
