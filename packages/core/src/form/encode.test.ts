import { describe, expect, it } from "vitest";
import { encodeForm, encodeFormValue, formEntries } from "./index.ts";

describe("encodeFormValue (spec 4.6)", () => {
  it("sends null as an empty string", () => {
    expect(encodeFormValue(null)).toBe("");
  });

  it("omits undefined (returns undefined)", () => {
    expect(encodeFormValue(undefined)).toBeUndefined();
  });

  it("joins a list with commas", () => {
    expect(encodeFormValue(["pop", "rock", 3])).toBe("pop,rock,3");
  });

  it("keeps the place of null and undefined inside a list as an empty item", () => {
    expect(encodeFormValue([1, null, undefined, 2])).toBe("1,,,2");
  });

  it("flattens a nested list", () => {
    expect(encodeFormValue([[1, 2], 3])).toBe("1,2,3");
  });

  it("sends an empty list as an empty string", () => {
    expect(encodeFormValue([])).toBe("");
  });

  it("sends booleans in lowercase", () => {
    expect(encodeFormValue(true)).toBe("true");
    expect(encodeFormValue(false)).toBe("false");
  });

  it("sends booleans inside a list in lowercase", () => {
    expect(encodeFormValue([true, false])).toBe("true,false");
  });

  it("sends a string unchanged, including an empty one", () => {
    expect(encodeFormValue("  a, b ")).toBe("  a, b ");
    expect(encodeFormValue("")).toBe("");
  });

  it.each([
    [60, "60"],
    [0.5, "0.5"],
    [0, "0"],
    [-0, "0"],
    [-3.25, "-3.25"],
    [1e21, "1e+21"],
    [1e-7, "1e-7"],
  ])("sends the number %s as String(n): %s", (value, expected) => {
    expect(encodeFormValue(value)).toBe(expected);
  });

  it.each([NaN, Infinity, -Infinity])("rejects the number %s with a TypeError", (value) => {
    expect(() => encodeFormValue(value)).toThrow(TypeError);
  });

  it("rejects NaN inside a list", () => {
    expect(() => encodeFormValue([1, NaN])).toThrow(TypeError);
  });

  it("sends a bigint as its digits", () => {
    expect(encodeFormValue(12345678901234567890n)).toBe("12345678901234567890");
  });

  it("sends an object with its own string form by that form", () => {
    expect(encodeFormValue(new URL("https://example.test/a?b=1"))).toBe(
      "https://example.test/a?b=1",
    );
  });

  it("rejects a plain object instead of sending [object Object]", () => {
    expect(() => encodeFormValue({ a: 1 })).toThrow(TypeError);
  });

  it("rejects a Blob (encodeForm appends it as a file)", () => {
    expect(() => encodeFormValue(new Blob(["x"]))).toThrow(TypeError);
  });

  it("rejects a symbol and a function", () => {
    expect(() => encodeFormValue(Symbol("s"))).toThrow(TypeError);
    expect(() => encodeFormValue(() => 1)).toThrow(TypeError);
  });
});

describe("formEntries", () => {
  it("keeps the key order and omits undefined fields", () => {
    expect(
      formEntries({ prompt: "lofi", seed: undefined, lyrics: null, duration: 60, use: false }),
    ).toEqual([
      ["prompt", "lofi"],
      ["lyrics", ""],
      ["duration", "60"],
      ["use", "false"],
    ]);
  });

  it("returns no entries for an empty object", () => {
    expect(formEntries({})).toEqual([]);
  });
});

describe("encodeForm", () => {
  it("builds FormData with the encoded fields in order", () => {
    const form = encodeForm({ model: "m", tags: ["a", "b"], lyrics: null, use_erg_tag: true });
    expect([...form.entries()]).toEqual([
      ["model", "m"],
      ["tags", "a,b"],
      ["lyrics", ""],
      ["use_erg_tag", "true"],
    ]);
  });

  it("omits undefined fields", () => {
    expect([...encodeForm({ a: undefined, b: 1 }).keys()]).toEqual(["b"]);
  });

  it("appends a Blob as a file part", () => {
    const form = encodeForm({ audio: new Blob(["abc"], { type: "audio/mpeg" }) });
    const part = form.get("audio");
    expect(part).toBeInstanceOf(Blob);
    expect((part as Blob).type).toBe("audio/mpeg");
  });
});
