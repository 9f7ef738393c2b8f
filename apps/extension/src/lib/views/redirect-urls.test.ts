import { describe, expect, it } from "vitest";
import {
  chromeExtensionId,
  chromeRedirectUrl,
  firefoxRedirectUrl,
  redirectUrls,
} from "./redirect-urls.ts";

// The fixed values of the brief (the backend's default allow-list uses them).
const CHROME = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
const FIREFOX = "https://bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org/";

describe("redirect URLs", () => {
  it("derives the Chrome extension id from the manifest key", async () => {
    expect(await chromeExtensionId()).toBe("kagljjjecjnbgppkpgkmojciehbjidja");
    expect(await chromeRedirectUrl()).toBe(CHROME);
  });

  it("derives the Firefox redirect host from the add-on id", async () => {
    expect(await firefoxRedirectUrl()).toBe(FIREFOX);
  });

  it("takes this browser's URL from the browser and computes the other one (Chrome)", async () => {
    expect(await redirectUrls(() => CHROME)).toEqual({
      chrome: CHROME,
      firefox: FIREFOX,
      current: "chrome",
    });
  });

  it("leaves out the Chrome URL of a store build seen from Firefox (the store picks that id)", async () => {
    const own = "https://0000000000000000000000000000000000000000.extensions.allizom.org/";
    expect(await redirectUrls(() => own, true)).toEqual({
      chrome: null,
      firefox: own,
      current: "firefox",
    });
    expect((await redirectUrls(() => CHROME, true)).chrome).toBe(CHROME);
  });

  it("takes this browser's URL from the browser and computes the other one (Firefox)", async () => {
    const own = "https://0000000000000000000000000000000000000000.extensions.allizom.org/";
    expect(await redirectUrls(() => own)).toEqual({
      chrome: CHROME,
      firefox: own,
      current: "firefox",
    });
  });
});
