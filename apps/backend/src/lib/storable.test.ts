import { describe, expect, it } from "vitest";
import {
  inspectJson,
  MAX_ID_LENGTH,
  MAX_JSON_DEPTH,
  storableId,
  storableObject,
  storableText,
} from "./storable.ts";

const nested = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? { child: value } : [value];
  return value;
};

describe("storableText", () => {
  it("returns plain text, paired surrogates included, as it is", () => {
    const text = "café ♪ 🎵 \\u0000 (an escape written out, not a NUL)";
    expect(storableText(text)).toBe(text);
  });

  it("replaces NUL and unpaired surrogates, leading or trailing, with U+FFFD", () => {
    expect(storableText("a\u0000b")).toBe("a\ufffdb");
    expect(storableText("\ud83c")).toBe("\ufffd");
    expect(storableText("x\udfb5y")).toBe("x\ufffdy");
    expect(storableText("\ud83c\udfb5\ud83c")).toBe("\ud83c\udfb5\ufffd");
  });
});

describe("storableId", () => {
  it("hashes an id longer than an index takes, the same id to the same key", () => {
    const long = "e".repeat(MAX_ID_LENGTH + 1);
    expect(storableId("e".repeat(MAX_ID_LENGTH))).toBe("e".repeat(MAX_ID_LENGTH));
    expect(storableId(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(storableId(long)).toBe(storableId(long));
  });
});

describe("inspectJson", () => {
  it("finds nothing in storable JSON", () => {
    expect(inspectJson({ a: [1, "two", { three: null }], b: true }, MAX_JSON_DEPTH)).toBe(
      "storable",
    );
  });

  it("finds NUL in a value, in a key, and in an array item", () => {
    expect(inspectJson({ a: { b: "x\u0000" } }, MAX_JSON_DEPTH)).toBe("unstorable");
    expect(inspectJson({ a: { "k\u0000": 1 } }, MAX_JSON_DEPTH)).toBe("unstorable");
    expect(inspectJson({ a: ["ok", "\udc00"] }, MAX_JSON_DEPTH)).toBe("unstorable");
  });

  it("allows exactly the depth limit and refuses one level more", () => {
    expect(inspectJson(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe("storable");
    expect(inspectJson(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe("too_deep");
  });

  it("reports depth before text, and survives 100,000 levels", () => {
    expect(inspectJson({ bad: "\u0000", deep: nested(MAX_JSON_DEPTH) }, MAX_JSON_DEPTH)).toBe(
      "too_deep",
    );
    expect(inspectJson(nested(100_000), MAX_JSON_DEPTH)).toBe("too_deep");
  });
});

describe("storableObject", () => {
  it("returns the same object when everything in it is storable", () => {
    const value = { file_url: "https://files.example/a.mp3", params: { lyrics: "♪ 🎵" } };
    expect(storableObject(value)).toBe(value);
  });

  it("returns a cleaned copy, keys included, leaving the original as it was", () => {
    const value = { "k\u0000": ["\ud800", { ok: "fine" }] };
    expect(storableObject(value)).toEqual({ "k\ufffd": ["\ufffd", { ok: "fine" }] });
    expect(value).toEqual({ "k\u0000": ["\ud800", { ok: "fine" }] });
  });

  it("replaces a value nested too deep by a note", () => {
    expect(storableObject({ deep: nested(MAX_JSON_DEPTH) })).toEqual({
      overture_note: expect.stringContaining(`${MAX_JSON_DEPTH} levels`) as string,
    });
  });
});
