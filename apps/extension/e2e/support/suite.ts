// `describe` for a browser test file: the same skip-or-fail rule in every file.
import { beforeAll, describe } from "vitest";
import { findChromium } from "./browser.ts";

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
