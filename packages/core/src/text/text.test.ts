import { describe, expect, it } from "vitest";
import {
  countCharacters,
  findUnstorableText,
  findUnstorableValue,
  normalizeLineBreaks,
} from "./index.ts";

describe("findUnstorableText (what Postgres text and jsonb cannot hold)", () => {
  it("finds nothing in ordinary text, emoji and CJK included", () => {
    expect(findUnstorableText("lofi 🎵 你好\n\ttabs")).toBeUndefined();
    expect(findUnstorableText("")).toBeUndefined();
  });

  it("finds a NUL character and says where", () => {
    expect(findUnstorableText("ab\u0000c")).toEqual({
      reason: "nul",
      index: 2,
      message: "contains a NUL character (U+0000) at position 3, which cannot be stored",
    });
  });

  it("finds a lone high surrogate, also at the very end", () => {
    expect(findUnstorableText("a\uD83Db")).toMatchObject({ reason: "lone_surrogate", index: 1 });
    expect(findUnstorableText("a\uD83D")).toMatchObject({ reason: "lone_surrogate", index: 1 });
  });

  it("finds a lone low surrogate, also at the very start", () => {
    expect(findUnstorableText("\uDE00a")).toMatchObject({ reason: "lone_surrogate", index: 0 });
    expect(findUnstorableText("ab\uDE00")).toMatchObject({ reason: "lone_surrogate", index: 2 });
  });

  it("accepts a surrogate pair and names a lone one by its code unit", () => {
    expect(findUnstorableText("\uD83D\uDE00")).toBeUndefined();
    expect(findUnstorableText("x\uDE00")?.message).toBe(
      "contains a lone UTF-16 surrogate (U+DE00) at position 2, which cannot be stored",
    );
  });

  it("counts the position in characters (code points), as a person reads it", () => {
    expect(findUnstorableText("🎵🎵\u0000")?.message).toContain("at position 3");
  });
});

describe("findUnstorableValue (text inside JSON going to a jsonb column)", () => {
  it("finds nothing in plain JSON values", () => {
    expect(findUnstorableValue({ a: ["x", 1, null, true], b: { c: "🎵" } })).toBeUndefined();
  });

  it("names the path of a string value that cannot be stored", () => {
    expect(findUnstorableValue({ output: { error: ["ok", "bad\u0000"] } })).toMatchObject({
      path: ["output", "error", 1],
      reason: "nul",
    });
  });

  it("checks object keys too", () => {
    expect(findUnstorableValue({ ["k\uD800"]: 1 })).toMatchObject({
      path: ["k\uD800"],
      reason: "lone_surrogate",
    });
  });

  it("checks a bare string", () => {
    expect(findUnstorableValue("a\u0000")).toMatchObject({ path: [], reason: "nul" });
  });
});

describe("normalizeLineBreaks", () => {
  it("turns CRLF and a lone CR into LF and leaves LF alone", () => {
    expect(normalizeLineBreaks("a\r\nb\rc\nd\r\n\r\ne")).toBe("a\nb\nc\nd\n\ne");
  });

  it("returns text without CR unchanged", () => {
    expect(normalizeLineBreaks("a\nb")).toBe("a\nb");
  });
});

describe("countCharacters (code points, like Python's len)", () => {
  it("counts an emoji as one and a combining sequence as its code points", () => {
    expect(countCharacters("a🎵b")).toBe(3);
    expect(countCharacters("e\u0301")).toBe(2);
    expect(countCharacters("👩🏽‍🎤")).toBe(4);
  });

  it("counts a lone surrogate as one", () => {
    expect(countCharacters("\uD800x")).toBe(2);
  });
});
