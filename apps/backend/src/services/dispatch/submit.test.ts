import { PlatformError } from "@overture/core/errors";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import {
  classifySubmitFailure,
  MAX_SUBMIT_HOLD_MS,
  quotaCheckHoldMs,
  submitHoldMs,
} from "./submit.ts";

const platform = (code: ConstructorParameters<typeof PlatformError>[0], options = {}) =>
  new PlatformError(code, "x", options);

describe("classifySubmitFailure", () => {
  it("queues again when the platform says the quota is full", () => {
    expect(classifySubmitFailure(platform("QUOTA_EXHAUSTED", { status: 429 }))).toBe("requeue");
  });

  it("queues again when the platform rate-limits the submit (429 without a quota message)", () => {
    expect(classifySubmitFailure(platform("PLATFORM_RATE_LIMITED", { status: 429 }))).toBe(
      "requeue",
    );
  });

  it("queues again when the platform refuses the token even after a fresh one (401)", () => {
    expect(classifySubmitFailure(platform("PLATFORM_UNAUTHORIZED", { status: 401 }))).toBe(
      "requeue",
    );
  });

  it("queues again when the request provably never left (connection refused)", () => {
    const cause = new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    expect(classifySubmitFailure(platform("PLATFORM_NETWORK_ERROR", { cause }))).toBe("requeue");
  });

  it("treats a connection reset as ambiguous", () => {
    const cause = new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    expect(classifySubmitFailure(platform("PLATFORM_NETWORK_ERROR", { cause }))).toBe("unknown");
  });

  it("treats a timeout as ambiguous", () => {
    const cause = new DOMException("No response within 30000 ms", "TimeoutError");
    expect(classifySubmitFailure(platform("PLATFORM_NETWORK_ERROR", { cause }))).toBe("unknown");
  });

  it("treats a 5xx and an unreadable 2xx as ambiguous", () => {
    expect(classifySubmitFailure(platform("PLATFORM_SERVER_ERROR", { status: 502 }))).toBe(
      "unknown",
    );
    expect(classifySubmitFailure(platform("PLATFORM_INVALID_RESPONSE", { status: 200 }))).toBe(
      "unknown",
    );
  });

  it("takes a 4xx as the platform's final refusal", () => {
    expect(classifySubmitFailure(platform("PLATFORM_BAD_REQUEST", { status: 400 }))).toBe(
      "rejected",
    );
  });

  it("queues again when credentials failed before anything was sent", () => {
    expect(classifySubmitFailure(new ApiError(503, "platform_unavailable", "x"))).toBe("requeue");
  });

  it("takes an access token that no longer exists as final", () => {
    expect(classifySubmitFailure(new ApiError(404, ACCESS_TOKEN_NOT_FOUND, "x"))).toBe("rejected");
  });
});

describe("submitHoldMs", () => {
  const ROUND_MS = 10_000;
  const quotaFull = (retryAfterMs?: number) =>
    platform("QUOTA_EXHAUSTED", {
      status: 429,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });

  it("holds the queue for the platform's Retry-After when it is longer than a round", () => {
    expect(submitHoldMs(quotaFull(120_000), ROUND_MS)).toBe(120_000);
  });

  it("holds a rate-limited submit (429 without a quota message) the same way", () => {
    const limited = platform("PLATFORM_RATE_LIMITED", { status: 429, retryAfterMs: 120_000 });
    expect(submitHoldMs(limited, ROUND_MS)).toBe(120_000);
  });

  it("holds at least one round when the Retry-After is shorter", () => {
    expect(submitHoldMs(quotaFull(2_000), ROUND_MS)).toBe(ROUND_MS);
  });

  it("holds at most 10 minutes, whatever the Retry-After", () => {
    expect(submitHoldMs(quotaFull(3_600_000), ROUND_MS)).toBe(MAX_SUBMIT_HOLD_MS);
    expect(MAX_SUBMIT_HOLD_MS).toBe(600_000);
  });

  it("does not hold without a Retry-After: the next round tries again", () => {
    expect(submitHoldMs(quotaFull(), ROUND_MS)).toBeUndefined();
  });
});

describe("quotaCheckHoldMs", () => {
  const ROUND_MS = 10_000;
  const limited = (retryAfterMs: number) =>
    platform("PLATFORM_RATE_LIMITED", { status: 429, retryAfterMs });

  it("holds the queue for the Retry-After of a 429 to the quota check before a submit", () => {
    expect(quotaCheckHoldMs(limited(120_000), ROUND_MS)).toBe(120_000);
  });

  it("bounds a quota check's hold as a refused submit's: at least a round, at most 10 minutes", () => {
    expect(quotaCheckHoldMs(limited(2_000), ROUND_MS)).toBe(ROUND_MS);
    expect(quotaCheckHoldMs(limited(3_600_000), ROUND_MS)).toBe(MAX_SUBMIT_HOLD_MS);
  });

  it("does not hold after a quota check that failed otherwise, even with a Retry-After (503)", () => {
    const failed = platform("PLATFORM_SERVER_ERROR", { status: 503, retryAfterMs: 120_000 });
    expect(quotaCheckHoldMs(failed, ROUND_MS)).toBeUndefined();
  });

  it("does not hold after a 429 to the quota check without a Retry-After", () => {
    expect(quotaCheckHoldMs(platform("PLATFORM_RATE_LIMITED", { status: 429 }), ROUND_MS)).toBe(
      undefined,
    );
  });
});
