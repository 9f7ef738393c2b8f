import { describe, expect, it } from "vitest";
import { loadLocale } from "../testing/locales.ts";

const placeholders = (text: string) =>
  [...text.matchAll(/\{(\w+)\}|\$(\d)/g)].map((m) => m[0]).sort();
// Proper names, technical terms and number pairs ("12 / 4,000") that read the same in both.
const SAME_IN_BOTH = new Set(["extName", "fields_lora_name", "compose_count", "setup_placeholder"]);

describe("locale files", () => {
  it("translate every English message into Simplified Chinese and nothing else", async () => {
    const en = await loadLocale("en");
    const zh = await loadLocale("zh_CN");
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it("keep the same placeholders in both languages", async () => {
    const en = await loadLocale("en");
    const zh = await loadLocale("zh_CN");
    for (const [key, { message }] of Object.entries(en)) {
      expect(placeholders(zh[key]?.message ?? ""), key).toEqual(placeholders(message));
    }
  });

  it("write the Chinese messages in Chinese, not copied English", async () => {
    const en = await loadLocale("en");
    const zh = await loadLocale("zh_CN");
    const copied = Object.keys(en).filter(
      (key) => !SAME_IN_BOTH.has(key) && !/[\u4e00-\u9fff]/.test(zh[key]?.message ?? ""),
    );
    expect(copied).toEqual([]);
  });

  it("use full-width punctuation in Chinese sentences", async () => {
    const zh = await loadLocale("zh_CN");
    const halfWidth = Object.entries(zh).filter(([, { message }]) =>
      /[\u4e00-\u9fff][,;:!?]|[\u4e00-\u9fff]\.(\s|$)/.test(message),
    );
    expect(halfWidth.map(([key]) => key)).toEqual([]);
  });
});
