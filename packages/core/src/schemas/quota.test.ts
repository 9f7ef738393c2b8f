import { describe, expect, it } from "vitest";
import { quotaSchema, readQuota } from "./index.ts";

describe("quotaSchema (spec 4.7)", () => {
  it("parses the seen shape and keeps other fields", () => {
    const body = { available: 1, max_concurrency: 2, running: 1 };
    expect(quotaSchema.parse(body)).toEqual(body);
  });

  it("reads a bare number as the available quota", () => {
    expect(quotaSchema.parse(3)).toEqual({ available: 3 });
  });

  it("rejects a non-numeric available", () => {
    expect(quotaSchema.safeParse({ available: "many" }).success).toBe(false);
  });
});

describe("readQuota", () => {
  it("reads available and max_concurrency", () => {
    expect(readQuota({ available: 0, max_concurrency: 2 })).toEqual({
      available: 0,
      maxConcurrency: 2,
    });
  });

  it("reads numeric strings as numbers", () => {
    expect(readQuota({ available: "1", max_concurrency: "2" })).toEqual({
      available: 1,
      maxConcurrency: 2,
    });
  });

  it("reads a bare number as the available quota", () => {
    expect(readQuota(2)).toEqual({ available: 2 });
  });

  it("returns an empty reading for an unreadable body instead of throwing", () => {
    expect(readQuota("oops")).toEqual({});
    expect(readQuota(null)).toEqual({});
  });
});
