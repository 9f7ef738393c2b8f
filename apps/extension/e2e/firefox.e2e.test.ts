// The Firefox store build in a real Firefox (Debian's firefox-esr): installed as a temporary
// add-on, its popup opened as a tab and read through the background page. Skipped, with the
// reason, where no Firefox is installed (the Chromium suites are the ones CI requires).
import { afterAll, beforeAll, expect, it } from "vitest";
import { FIREFOX_REDIRECT_HOST, GECKO_ID } from "../src/lib/shared/extension-identity.ts";
import {
  type FirefoxAddon,
  type RunningFirefox,
  buildFirefox,
  launchFirefox,
} from "./support/firefox.ts";
import { quietly } from "./support/stack.ts";
import { describeInFirefox } from "./support/suite.ts";

/** Opens an extension page in a tab and answers what `read` (a function of its window) returns. */
async function readPage<T>(addon: FirefoxAddon, page: string, read: string): Promise<T> {
  const tab = await addon.open(page);
  try {
    return await tab.waitFor<T>(read, 10_000);
  } finally {
    await tab.close();
  }
}

describeInFirefox("the Firefox store build in Firefox", (firefoxPath) => {
  let browser: RunningFirefox;
  let addon: FirefoxAddon;

  beforeAll(async () => {
    const build = await buildFirefox("store");
    browser = await launchFirefox(firefoxPath);
    addon = await browser.install(build);
  });

  afterAll(async () => {
    await quietly(() => browser.close());
  });

  it("installs with its fixed add-on id and its data collection declaration", async () => {
    expect(addon.id).toBe(GECKO_ID);
    const gecko = await addon.run<Record<string, unknown>>(
      "return browser.runtime.getManifest().browser_specific_settings.gecko;",
    );
    // Firefox adds its own fields (the consent state) beside what the manifest says.
    expect(gecko.data_collection_permissions).toMatchObject({ required: ["authenticationInfo"] });
  });

  it("asks for the backend at first run and shows Firefox's redirect URL and this origin", async () => {
    const shown = await readPage<{ title: string; redirect: string; origin: string }>(
      addon,
      "popup.html",
      `(w) => w.document.querySelector("[data-testid=allow-redirect]") && {
        title: w.document.querySelector("#setup-title").textContent,
        redirect: w.document.querySelector("[data-testid=allow-redirect]").textContent,
        origin: w.document.querySelector("[data-testid=allow-origin]").textContent,
      }`,
    );
    expect(shown.title).toBe("Connect Overture to your backend");
    expect(shown.redirect).toBe(`https://${FIREFOX_REDIRECT_HOST}/`);
    expect(shown.origin).toMatch(/^moz-extension:\/\/[0-9a-f-]{36}$/);
  });

  it("shows the privacy policy page", async () => {
    const heading = await readPage<string>(
      addon,
      "privacy.html",
      `(w) => w.document.querySelector("h1")?.textContent`,
    );
    expect(heading).toBe("Overture privacy policy");
  });
});
