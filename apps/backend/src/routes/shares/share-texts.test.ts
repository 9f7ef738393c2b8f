import { describe, expect, it } from "vitest";
import { SHARE_TEXTS, shareTexts } from "./share-texts.ts";

describe("the share page's language from Accept-Language", () => {
  it("speaks English without a header", () => {
    expect(shareTexts(undefined)).toBe(SHARE_TEXTS.en);
  });

  it("speaks Chinese to a browser that lists zh first", () => {
    expect(shareTexts("zh-CN,zh;q=0.9,en;q=0.8")).toBe(SHARE_TEXTS.zh);
  });

  it("speaks English when English has the higher weight although zh comes first", () => {
    expect(shareTexts("zh;q=0.5,en;q=0.9")).toBe(SHARE_TEXTS.en);
  });

  it("keeps the earlier of two equal weights", () => {
    expect(shareTexts("en,zh")).toBe(SHARE_TEXTS.en);
    expect(shareTexts("zh-TW,en")).toBe(SHARE_TEXTS.zh);
  });

  it("ignores a range refused with q=0 and languages it does not speak", () => {
    expect(shareTexts("fr,zh;q=0,de")).toBe(SHARE_TEXTS.en);
  });

  it("has the same words in both languages", () => {
    expect(Object.keys(SHARE_TEXTS.zh).sort()).toEqual(Object.keys(SHARE_TEXTS.en).sort());
  });
});
