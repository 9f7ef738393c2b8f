// `describe` for a browser test file: the same skip-or-fail rule in every file.
import { beforeAll, describe } from "vitest";
import { findChromium } from "./browser.ts";
import { findFirefox } from "./firefox.ts";

/**
 * Runs `body` (given Chromium's path) as a suite. Without Chromium the suite is reported as
 * skipped with the reason when OVERTURE_SKIP_BROWSER=1, and fails loudly otherwise.
 */
export function describeInChromium(title: string, body: (chromiumPath: string) => void): void {
  const chromium = findChromium();
  if ("missing" in chromium && process.env.OVERTURE_SKIP_BROWSER === "1") {
    console.warn(`[overture] browser tests skipped: ${chromium.missing}`);
    describe.skip(`${title} — skipped: ${chromium.missing}`, () => {
      body("");
    });
    return;
  }
  describe(title, () => {
    beforeAll(() => {
      if ("missing" in chromium)
        throw new Error(
          `The browser tests need Chromium: ${chromium.missing}. Set OVERTURE_SKIP_BROWSER=1 to skip them.`,
        );
    });
    body("path" in chromium ? chromium.path : "");
  });
}

/**
 * Runs `body` (given Firefox's path) as a suite, or reports it skipped with the reason where no
 * Firefox is installed: the Chromium suites are the ones CI requires.
 */
export function describeInFirefox(title: string, body: (firefoxPath: string) => void): void {
  const firefox = findFirefox();
  if ("missing" in firefox) {
    console.warn(`[overture] Firefox test skipped: ${firefox.missing}`);
    describe.skip(`${title} — skipped: ${firefox.missing}`, () => {
      body("");
    });
    return;
  }
  describe(title, () => {
    body(firefox.path);
  });
}
