// The Firefox store build in a real Firefox (Debian's firefox-esr): installed as a temporary
// add-on, its popup opened as a tab and read through the background page. Skipped, with the
// reason, where no Firefox is installed (the Chromium suites are the ones CI requires).
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIREFOX_REDIRECT_HOST, GECKO_ID } from "../src/lib/extension-identity.ts";
import {
  type FirefoxAddon,
  type RunningFirefox,
  findFirefox,
  launchFirefox,
} from "./support/firefox.ts";
import { quietly } from "./support/stack.ts";

const ROOT = resolve(import.meta.dirname, "..");
const STORE_BUILD = resolve(ROOT, ".output/firefox-mv2-store");
const firefox = findFirefox();
if ("missing" in firefox) console.warn(`[overture] Firefox test skipped: ${firefox.missing}`);
const suite = "missing" in firefox ? describe.skip : describe;

/** Opens an extension page in a tab and answers what `read` (a function of its window) returns. */
const READ_PAGE = (page: string, read: string) => `
  const tab = await browser.tabs.create({ url: "/${page}" });
  try {
    for (let attempt = 0; attempt < 100; attempt++) {
      const view = browser.extension.getViews({ type: "tab", tabId: tab.id })[0];
      const value = view ? (${read})(view) : undefined;
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  } finally {
    await browser.tabs.remove(tab.id);
  }`;

suite("the Firefox store build in Firefox", () => {
  let browser: RunningFirefox;
  let addon: FirefoxAddon;

  beforeAll(async () => {
    await promisify(execFile)(
      resolve(ROOT, "node_modules/.bin/wxt"),
      ["build", "-b", "firefox", "--mode", "store"],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" } },
    );
    browser = await launchFirefox("path" in firefox ? firefox.path : "");
    addon = await browser.install(STORE_BUILD);
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
    const shown = await addon.run<{ title: string; redirect: string; origin: string } | null>(
      READ_PAGE(
        "popup.html",
        `(w) => w.document.querySelector("[data-testid=allow-redirect]") && {
          title: w.document.querySelector("#setup-title").textContent,
          redirect: w.document.querySelector("[data-testid=allow-redirect]").textContent,
          origin: w.document.querySelector("[data-testid=allow-origin]").textContent,
        }`,
      ),
    );
    expect(shown?.title).toBe("Connect Overture to your backend");
    expect(shown?.redirect).toBe(`https://${FIREFOX_REDIRECT_HOST}/`);
    expect(shown?.origin).toMatch(/^moz-extension:\/\/[0-9a-f-]{36}$/);
  });

  it("shows the privacy policy page", async () => {
    const heading = await addon.run<string | null>(
      READ_PAGE("privacy.html", `(w) => w.document.querySelector("h1")?.textContent`),
    );
    expect(heading).toBe("Overture privacy policy");
  });
});
