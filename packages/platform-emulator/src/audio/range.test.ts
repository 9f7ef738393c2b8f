import { describe, expect, it } from "vitest";
import { parseRange } from "./range.ts";

describe("parseRange (RFC 9110 14.2)", () => {
  it("reads bytes=a-b, clamping the end to the body", () => {
    expect(parseRange("bytes=0-43", 100)).toEqual({ start: 0, end: 43 });
    expect(parseRange("bytes=90-200", 100)).toEqual({ start: 90, end: 99 });
  });

  it("reads an open end and a suffix", () => {
    expect(parseRange("bytes=40-", 100)).toEqual({ start: 40, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-500", 100)).toEqual({ start: 0, end: 99 });
  });

  it("a start past the end, or an empty suffix, is unsatisfiable", () => {
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 100)).toBe("unsatisfiable");
  });

  it("ignores a missing, malformed, reversed or multi-range header (whole body)", () => {
    for (const header of [undefined, "", "items=0-1", "bytes=5-2", "bytes=0-1,4-5", "bytes=-"])
      expect(parseRange(header, 100)).toBeUndefined();
  });
});
