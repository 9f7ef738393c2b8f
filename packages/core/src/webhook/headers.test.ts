import { describe, expect, it } from "vitest";
import { constantTimeEqual, isLowerHexSignature, isTimestamp13, readHeader } from "./index.ts";

describe("readHeader", () => {
  it("finds a header in a Headers object whatever the case", () => {
    expect(readHeader(new Headers({ "x-signature": "ab" }), "X-Signature")).toBe("ab");
  });

  it("finds a header in a record whatever the case", () => {
    expect(readHeader({ "x-signature": "ab" }, "X-Signature")).toBe("ab");
    expect(readHeader({ "X-SIGNATURE": "ab" }, "X-Signature")).toBe("ab");
    expect(readHeader({ "X-Signature": undefined, "x-SIGNATURE": "ab" }, "x-signature")).toBe("ab");
  });

  it("gives undefined for an absent header", () => {
    expect(readHeader({ other: "1" }, "X-Signature")).toBeUndefined();
    expect(readHeader(new Headers(), "X-Signature")).toBeUndefined();
  });

  it("trims spaces and joins repeated values as Headers does", () => {
    const record = readHeader({ "x-signature": [" a ", "b"] }, "X-Signature");
    const headers = new Headers([
      ["x-signature", " a "],
      ["x-signature", "b"],
    ]);
    expect(record).toBe("a, b");
    expect(readHeader(headers, "X-Signature")).toBe("a, b");
    expect(readHeader({ "x-signature": "\t ab " }, "X-Signature")).toBe("ab");
  });
});

describe("signature and timestamp shapes (spec 4.8)", () => {
  it("accepts 64 lowercase hex characters only", () => {
    expect(isLowerHexSignature("0123456789abcdef".repeat(4))).toBe(true);
    expect(isLowerHexSignature("0123456789ABCDEF".repeat(4))).toBe(false);
    expect(isLowerHexSignature("0".repeat(63))).toBe(false);
    expect(isLowerHexSignature("g".repeat(64))).toBe(false);
  });

  it("accepts 13 ASCII digits only", () => {
    expect(isTimestamp13("1767225600000")).toBe(true);
    expect(isTimestamp13("176722560000")).toBe(false);
    expect(isTimestamp13("1767225600000 ")).toBe(false);
    expect(isTimestamp13("176722560000a")).toBe(false);
  });
});

describe("constantTimeEqual (spec 4.9 step 6)", () => {
  it("is true only for equal strings", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "ab")).toBe(false);
  });

  it("reads every character even when the first one differs: no early exit", () => {
    const reads: number[] = [];
    const spy = (text: string) =>
      ({
        length: text.length,
        charCodeAt: (i: number) => {
          reads.push(i);
          return text.charCodeAt(i);
        },
      }) as unknown as string;
    expect(constantTimeEqual(spy("x".repeat(64)), "y".repeat(64))).toBe(false);
    expect(reads).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });
});
