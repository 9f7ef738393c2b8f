import { describe, expect, it } from "vitest";
import { PlatformError } from "../errors/index.ts";
import { connectionRefused, connectionReset } from "../transport/fake-fetch.fixtures.ts";
import { backoffDelay, defaultSleep, isRetryable, requestNeverSent, retryPolicy } from "./retry.ts";

function networkError(cause: unknown) {
  return new PlatformError("PLATFORM_NETWORK_ERROR", "no response", { cause });
}

function codeError(code: string) {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
}

describe("requestNeverSent", () => {
  it("is true for a refused connection (ECONNREFUSED in cause.code)", () => {
    expect(requestNeverSent(networkError(connectionRefused()))).toBe(true);
  });

  it.each(["ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"])("is true for %s", (code) => {
    expect(requestNeverSent(networkError(codeError(code)))).toBe(true);
  });

  it("is false for a reset connection", () => {
    expect(requestNeverSent(networkError(connectionReset()))).toBe(false);
  });

  it("is false for a per-request timeout", () => {
    expect(requestNeverSent(networkError(new DOMException("late", "TimeoutError")))).toBe(false);
  });

  it("is false for a browser's opaque TypeError", () => {
    expect(requestNeverSent(networkError(new TypeError("Failed to fetch")))).toBe(false);
  });

  it("is false for an HTTP error", () => {
    expect(requestNeverSent(new PlatformError("PLATFORM_SERVER_ERROR", "x", { status: 503 }))).toBe(
      false,
    );
  });

  it("reads the fetch TypeError itself too", () => {
    expect(requestNeverSent(connectionRefused())).toBe(true);
  });

  it("is true when every address of a happy-eyeballs attempt refused", () => {
    const refused = () => Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    const aggregate = Object.assign(new AggregateError([refused(), refused()]), {
      code: "ECONNREFUSED",
    });
    expect(requestNeverSent(new TypeError("fetch failed", { cause: aggregate }))).toBe(true);
  });

  it("is false when one address of a happy-eyeballs attempt failed otherwise", () => {
    const aggregate = Object.assign(
      new AggregateError([
        Object.assign(new Error("refused"), { code: "ECONNREFUSED" }),
        Object.assign(new Error("reset"), { code: "ECONNRESET" }),
      ]),
      { code: "ECONNREFUSED" },
    );
    expect(requestNeverSent(new TypeError("fetch failed", { cause: aggregate }))).toBe(false);
  });
});

describe("isRetryable", () => {
  it.each([500, 502, 503, 504])("retries HTTP %i", (status) => {
    expect(isRetryable(new PlatformError("PLATFORM_SERVER_ERROR", "x", { status }))).toBe(true);
  });

  it("does not retry HTTP 501", () => {
    expect(isRetryable(new PlatformError("PLATFORM_SERVER_ERROR", "x", { status: 501 }))).toBe(
      false,
    );
  });

  it("retries a network error and a rate limit", () => {
    expect(isRetryable(new PlatformError("PLATFORM_NETWORK_ERROR", "x"))).toBe(true);
    expect(isRetryable(new PlatformError("PLATFORM_RATE_LIMITED", "x", { status: 429 }))).toBe(
      true,
    );
  });

  it.each([
    "QUOTA_EXHAUSTED",
    "PLATFORM_UNAUTHORIZED",
    "PLATFORM_BAD_REQUEST",
    "PLATFORM_ABORTED",
    "PLATFORM_INVALID_RESPONSE",
  ] as const)("does not retry %s", (code) => {
    expect(isRetryable(new PlatformError(code, "x"))).toBe(false);
  });

  it("does not retry an error that is not a PlatformError", () => {
    expect(isRetryable(new Error("x"))).toBe(false);
  });
});

describe("backoffDelay", () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });

  it("doubles the step per attempt, half fixed and half random", () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 0.999)).toBeCloseTo(99.95);
    expect(backoffDelay(2, policy, () => 0)).toBe(200);
  });

  it("caps the step at maxDelayMs", () => {
    expect(backoffDelay(10, policy, () => 0.999)).toBeLessThanOrEqual(1000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
  });
});

describe("defaultSleep", () => {
  it("resolves after the time", async () => {
    await expect(defaultSleep(1)).resolves.toBeUndefined();
  });

  it("ends at once, with the abort reason, when the signal aborts during the sleep", async () => {
    const controller = new AbortController();
    const sleeping = defaultSleep(3_600_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(sleeping).rejects.toThrow("stop");
  });

  it("rejects at once when the signal has already aborted", async () => {
    await expect(defaultSleep(3_600_000, AbortSignal.abort(new Error("gone")))).rejects.toThrow(
      "gone",
    );
  });
});
