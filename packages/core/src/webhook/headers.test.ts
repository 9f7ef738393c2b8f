import { describe, expect, it } from "vitest";
import {
  constantTimeEqual,
  constantTimeEqualHex,
  isLowerHexSignature,
  isTimestamp13,
  readHeader,
} from "./index.ts";

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

describe("constantTimeEqualHex (spec 4.9 step 6)", () => {
  const binary = "\u00ab\u0001\u00ff\u0090";
  it("is true when the lowercase hex spells the bytes", () => {
    expect(constantTimeEqualHex(binary, "ab01ff90")).toBe(true);
  });

  it("is false when one digit differs, wherever it is", () => {
    for (let i = 0; i < 8; i++) {
      const hex = "ab01ff90";
      const changed = hex.slice(0, i) + (hex[i] === "0" ? "1" : "0") + hex.slice(i + 1);
      expect(constantTimeEqualHex(binary, changed)).toBe(false);
    }
  });

  it("is false for uppercase, non-hex, wide characters or another length", () => {
    expect(constantTimeEqualHex(binary, "AB01FF90")).toBe(false);
    expect(constantTimeEqualHex(binary, "ab01ff9g")).toBe(false);
    // U+0130 masked to a byte would read as "0": a wide code must never alias a digit.
    expect(constantTimeEqualHex("\u0000", "0\u0130")).toBe(false);
    expect(constantTimeEqualHex(binary, "ab01ff9")).toBe(false);
    expect(constantTimeEqualHex(binary, "ab01ff9000")).toBe(false);
  });

  it("reads every character even when the first one differs: no early exit", () => {
    const reads: number[] = [];
    const spy = {
      length: 64,
      charCodeAt: (i: number) => {
        reads.push(i);
        return 0x66;
      },
    } as unknown as string;
    expect(constantTimeEqualHex("\u0000".repeat(32), spy)).toBe(false);
    expect(reads).toEqual(Array.from({ length: 64 }, (_, i) => i));
  });
});
