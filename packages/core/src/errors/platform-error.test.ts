import { describe, expect, it } from "vitest";
import { PLATFORM_ERROR_CODES, PlatformError, isPlatformError, withTaskId } from "./index.ts";

describe("PlatformError", () => {
  it("carries name, code, message, status, body and cause", () => {
    const cause = new TypeError("fetch failed");
    const error = new PlatformError("PLATFORM_SERVER_ERROR", "The platform failed", {
      status: 503,
      body: { error: "down" },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: "PlatformError",
      code: "PLATFORM_SERVER_ERROR",
      message: "The platform failed",
      status: 503,
      body: { error: "down" },
    });
    expect(error.cause).toBe(cause);
  });

  it("has no cause when none is given", () => {
    expect("cause" in new PlatformError("PLATFORM_ABORTED", "Aborted")).toBe(false);
  });

  it("exports every code once", () => {
    expect(new Set(PLATFORM_ERROR_CODES).size).toBe(13);
  });
});

describe("isPlatformError", () => {
  const error = new PlatformError("QUOTA_EXHAUSTED", "full");

  it("recognises a PlatformError", () => {
    expect(isPlatformError(error)).toBe(true);
  });

  it("checks the code when one is given", () => {
    expect(isPlatformError(error, "QUOTA_EXHAUSTED")).toBe(true);
    expect(isPlatformError(error, "PLATFORM_RATE_LIMITED")).toBe(false);
  });

  it("accepts a list of codes", () => {
    expect(isPlatformError(error, ["PLATFORM_RATE_LIMITED", "QUOTA_EXHAUSTED"])).toBe(true);
  });

  it("rejects other errors and non-errors", () => {
    expect(isPlatformError(new Error("x"))).toBe(false);
    expect(isPlatformError({ name: "PlatformError", code: "QUOTA_EXHAUSTED" })).toBe(false);
  });

  it("recognises a PlatformError from another copy of the module by name and code", () => {
    const foreign = Object.assign(new Error("full"), {
      name: "PlatformError",
      code: "QUOTA_EXHAUSTED",
    });
    expect(isPlatformError(foreign, "QUOTA_EXHAUSTED")).toBe(true);
  });
});

describe("withTaskId", () => {
  it("returns a copy naming the task and keeping everything else", () => {
    const cause = new Error("root");
    const error = new PlatformError("PLATFORM_ABORTED", "Aborted", { cause });
    const copy = withTaskId(error, "t1");
    expect(copy).toMatchObject({ code: "PLATFORM_ABORTED", message: "Aborted", taskId: "t1" });
    expect(copy.cause).toBe(cause);
  });
});
