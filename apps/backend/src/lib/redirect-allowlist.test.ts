import { describe, expect, it } from "vitest";
import { isAllowedRedirect } from "./redirect-allowlist.ts";

const CHROME = "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/";
const FIREFOX_PREFIX = "https://bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org/*";
const LIST = [CHROME, FIREFOX_PREFIX];

describe("isAllowedRedirect", () => {
  it("accepts an exact entry", () => {
    expect(isAllowedRedirect(CHROME, LIST)).toBe(true);
  });

  it("refuses another path under an exact entry", () => {
    expect(isAllowedRedirect(`${CHROME}other`, LIST)).toBe(false);
  });

  it("accepts any path under an entry ending in *", () => {
    expect(
      isAllowedRedirect(
        "https://bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org/cb",
        LIST,
      ),
    ).toBe(true);
  });

  it("refuses a host that only starts like an entry's host", () => {
    expect(
      isAllowedRedirect(
        "https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org.evil.test/",
        LIST,
      ),
    ).toBe(false);
  });

  it("refuses a query", () => {
    expect(isAllowedRedirect(`${CHROME}?next=https://evil.test`, LIST)).toBe(false);
  });

  it("refuses an empty query marker", () => {
    expect(isAllowedRedirect(`${CHROME}?`, LIST)).toBe(false);
  });

  it("refuses a fragment", () => {
    expect(isAllowedRedirect(`${CHROME}#x`, LIST)).toBe(false);
  });

  it("refuses user info in front of an allowed host", () => {
    expect(
      isAllowedRedirect(
        "https://evil.test@kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/",
        LIST,
      ),
    ).toBe(false);
  });

  it("refuses a non-canonical spelling (dot segments)", () => {
    expect(
      isAllowedRedirect(
        "https://bd0731a63c2abbaf471d8f1c7a666900cdbc162a.extensions.allizom.org/a/../b",
        LIST,
      ),
    ).toBe(false);
  });

  it("refuses another scheme for the same host", () => {
    expect(
      isAllowedRedirect("http://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org/", LIST),
    ).toBe(false);
  });

  it("refuses another port", () => {
    expect(
      isAllowedRedirect("https://kagljjjecjnbgppkpgkmojciehbjidja.chromiumapp.org:8443/", LIST),
    ).toBe(false);
  });

  it("refuses everything with an empty allow-list", () => {
    expect(isAllowedRedirect(CHROME, [])).toBe(false);
  });

  it("refuses a string that is not a URL", () => {
    expect(isAllowedRedirect("javascript:alert(1)", LIST)).toBe(false);
  });
});
