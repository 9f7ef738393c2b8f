import { describe, expect, it } from "vitest";
import * as codes from "./error-codes.ts";

const { API_ERROR_CODES, ...constants } = codes;

describe("the API's error codes", () => {
  it("lists every exported code exactly once", () => {
    expect([...API_ERROR_CODES].sort()).toEqual(Object.values(constants).sort());
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });

  it("names each constant after its value", () => {
    for (const [name, value] of Object.entries(constants)) expect(name.toLowerCase()).toBe(value);
  });
});
