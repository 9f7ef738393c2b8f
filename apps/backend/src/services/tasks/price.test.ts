import { describe, expect, it } from "vitest";
import { priceOf } from "./price.ts";

describe("priceOf", () => {
  it("takes a finite number as it is", () => {
    expect(priceOf(0.12)).toBe(0.12);
  });

  it("takes a decimal string as the number it spells, as core's numberish reads it", () => {
    expect(priceOf("0.12")).toBe(0.12);
    expect(priceOf("3")).toBe(3);
    expect(priceOf(" 0.5 ")).toBe(0.5);
  });

  it("takes a decimal string with an exponent, as decimal money types print small amounts", () => {
    expect(priceOf("1.5e-2")).toBe(0.015);
    expect(priceOf("1E-7")).toBe(1e-7);
  });

  it("drops a string that is not a plain decimal number", () => {
    for (const text of ["", " ", "abc", "0,12", "0x10", "1_000", "12 CNY"])
      expect(priceOf(text), JSON.stringify(text)).toBeUndefined();
  });

  it("drops a string spelling a number that is not finite", () => {
    for (const text of ["NaN", "Infinity", "-Infinity", "1e999"])
      expect(priceOf(text), text).toBeUndefined();
  });

  it("drops a number that is not finite and anything that is neither number nor string", () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}, [1], true])
      expect(priceOf(value)).toBeUndefined();
  });
});
