import { PlatformError } from "@overture/core/errors";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors.ts";
import { ACCESS_TOKEN_NOT_FOUND } from "../../schemas/error-codes.ts";
import { classifySubmitFailure } from "./submit.ts";

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
