import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CHROME_EXTENSION_ID,
  CHROME_PUBLIC_KEY,
  FIREFOX_REDIRECT_HOST,
  GECKO_ID,
} from "./extension-identity.ts";

describe("the extension's fixed identity", () => {
  it("names the Chrome id its manifest key gives", () => {
    const digest = createHash("sha256")
      .update(Buffer.from(CHROME_PUBLIC_KEY, "base64"))
      .digest("hex");
    const id = digest
      .slice(0, 32)
      .replace(/[0-9a-f]/g, (digit) => String.fromCharCode(97 + Number.parseInt(digit, 16)));
    expect(CHROME_EXTENSION_ID).toBe(id);
  });

  it("names the Firefox redirect host its gecko id gives", () => {
    const hash = createHash("sha1").update(GECKO_ID).digest("hex");
    expect(FIREFOX_REDIRECT_HOST).toBe(`${hash}.extensions.allizom.org`);
  });
});
